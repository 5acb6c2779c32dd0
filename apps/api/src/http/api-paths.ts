// Which paths are the HTTP API's, for the SPA (it never answers a page there) and the security headers.

/** Paths of the HTTP API: a browser asking for one gets the API's answer, not the SPA. Case as the routes have it. */
export const apiPrefixes = [
  '/organizations',
  '/billing',
  '/health',
  '/session',
  '/sessions',
  '/account',
  '/invitations',
  '/auth',
  '/assets',
  '/audit',
  '/metrics',
  '/docs',
  '/ofrep',
  '/entitlements',
  '/usage',
];

/**
 * The API's paths whose every answer is data (JSON, problem+json, the metrics' text): all of them but
 * `/docs` (an HTML page and its stylesheet), `/assets` (the SPA's files) and `/auth` (Google's
 * redirects, whose body is HTML for a browser). Their answers get the API's security headers.
 */
export const dataPrefixes = apiPrefixes.filter((prefix) => !['/docs', '/assets', '/auth'].includes(prefix));

/** A path of the HTTP API: a browser asking for one gets the API's answer, not the SPA. */
export function isApiPath(path: string): boolean {
  return apiPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
