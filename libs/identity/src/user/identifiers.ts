// How e-mail addresses and usernames are compared: case-insensitively, after Unicode normalization.

export const normalizeEmail = (value: string): string => value.normalize('NFKC').trim().toLowerCase();

export const normalizeUsername = (value: string): string => value.normalize('NFKC').trim().toLowerCase();

/** Usernames never contain '@', so a login name says by itself which kind it is. */
export const isValidUsername = (normalized: string): boolean => /^[a-z0-9][a-z0-9._-]{1,63}$/.test(normalized);

export type LoginName = { kind: 'email' | 'username'; value: string };

/** The seed's login field takes an e-mail address or a username (section 2). */
export function parseLoginName(value: string): LoginName {
  return value.includes('@')
    ? { kind: 'email', value: normalizeEmail(value) }
    : { kind: 'username', value: normalizeUsername(value) };
}
