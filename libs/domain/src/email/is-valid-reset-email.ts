/**
 * Seed section 5: when the forgot screen's Send button is enabled (at least 4 characters, containing '@' and '.').
 * Only that screen's gate: an address Chorus keeps or mails is held to isEmailAddress.
 */
export const isValidResetEmail = (value: string): boolean =>
  typeof value === 'string' && value.length >= 4 && value.includes('@') && value.includes('.');
