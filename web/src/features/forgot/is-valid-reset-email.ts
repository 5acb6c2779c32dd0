/** Seed, section 5: 'at least 4 characters and contains '@' and '.'' — nothing stricter. */
export const isValidResetEmail = (email: string): boolean =>
  email.length >= 4 && email.includes('@') && email.includes('.');
