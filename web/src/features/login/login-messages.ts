// The seed's texts for the login screen (sections 2 and 8).

export const INCORRECT_CREDENTIALS = 'Incorrect username or password.';

const queryErrors = new Map([
  ['google', 'Google sign-in failed.'],
  ['sso', 'Single sign-on (SSO) failed.'],
  ['account', "You don't seem to have access to any organization."],
]);

/** The `/login/:error` path segment is never read. */
export function queryErrorMessage(search: string): string | null {
  return queryErrors.get(new URLSearchParams(search).get('error') ?? '') ?? null;
}

// 'a marker that counts if it appears anywhere in the query string'
export const hasMigrationMarker = (search: string): boolean => search.includes('from_rns');

export const migrationNotice = (productName: string): string[] => [
  `Your organization has been migrated from ${productName} Classic to ${productName}.`,
  'Same credentials can be used here.',
  'Please log in!',
];
