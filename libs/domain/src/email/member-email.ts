// A member's address is mailed (an invitation, a notice): it must be one plain address that the mailer
// reads back exactly as typed, or one bad address is refused by the mailer, or mailed to someone else.

/** What an address's name may hold: letters, digits and marks in any script, and RFC 5322's symbols but for quotes. */
const NAME_ATOM = "[\\p{L}\\p{N}\\p{M}!#$%&'*+/=?^_`{|}~-]+";
const DOMAIN_LABEL = '[\\p{L}\\p{N}\\p{M}-]+';
/** One address, and nothing a mail header or SMTP envelope reads as a name, group, comment, list or route. */
const MEMBER_EMAIL = new RegExp(`^(?!.*\\p{Default_Ignorable_Code_Point})${NAME_ATOM}(?:\\.${NAME_ATOM})*@${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})*$`, 'u');

/** The refusal in the customer's words: shown by the console under the field and answered by the API. */
export const memberEmailRefusal =
  'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.';

/**
 * Whether `value` is one plain e-mail address: letters, digits and the symbols an address may hold in
 * its name, one @, and a domain of letters, digits and hyphens. Control, zero-width and bidi characters
 * are neither letters nor digits, so they are refused with whitespace, commas, quotes, brackets and colons;
 * so are invisible marks (variation selectors, the grapheme joiner): an address reads as what it is.
 */
export const isMemberEmail = (value: string): boolean => typeof value === 'string' && MEMBER_EMAIL.test(value);
