// The one rule for an e-mail address Chorus keeps and mails (a member, a user, an invitation, a directory's person):
// the mailer must read the address back exactly as typed, or a bad address is mailed to someone else.

const NAME_ATOM = "[\\p{L}\\p{N}\\p{M}!#$%&'*+/=?^_`{|}~-]+";
const DOMAIN_LABEL = '[\\p{L}\\p{N}\\p{M}-]+';
/**
 * Nothing a mail header or SMTP envelope reads as a name, group, comment, list or route; a dot in the domain, since
 * a name without one (`root@localhost`) is no address anyone outside this machine can be mailed at.
 */
const EMAIL_ADDRESS = new RegExp(
  `^(?!.*\\p{Default_Ignorable_Code_Point})${NAME_ATOM}(?:\\.${NAME_ATOM})*@${DOMAIN_LABEL}(?:\\.${DOMAIN_LABEL})+$`,
  'u',
);

export const emailAddressRefusal =
  'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.';

/** RFC 5321's limit on a path, which every mail server enforces. */
export const MAX_EMAIL_LENGTH = 254;

/** Control, zero-width, bidi and invisible characters are refused: an address reads as what it is. */
export const isEmailAddress = (value: string): boolean =>
  typeof value === 'string' && value.length <= MAX_EMAIL_LENGTH && EMAIL_ADDRESS.test(value);
