/** Seed section 5, forgot password: at least 4 characters, containing '@' and '.'. */
export const isValidResetEmail = (value: string): boolean =>
  typeof value === 'string' && value.length >= 4 && value.includes('@') && value.includes('.');
