// The mailer must read the address back exactly as typed, or a bad address is mailed to someone else.

const NAME_ATOM = "[\\p{L}\\p{N}\\p{M}!#$%&'*+/=?^_`{|}~-]+";
const DOMAIN_LABEL = '[\\p{L}\\p{N}\\p{M}-]+';
/** Nothing a mail header or SMTP envelope reads as a name, group, comment, list or route. */
const MEMBER_EMAIL = new RegExp(
  `^(?!.*\\p{Default_Ignorable_Code_Point})${NAME_ATOM}(?:\\.${NAME_ATOM})*@${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})*$`,
  'u',
);

export const memberEmailRefusal =
  'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.';

/** Control, zero-width, bidi and invisible characters are refused: an address reads as what it is. */
export const isMemberEmail = (value: string): boolean => typeof value === 'string' && MEMBER_EMAIL.test(value);
