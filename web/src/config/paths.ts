// Every route of the SPA and every page the SPA sends the browser to, in one place.
const org = (organizationId: string) => `/app/orgs/${encodeURIComponent(organizationId)}`;

export const paths = {
  forgot: { path: '/forgot', getHref: () => '/forgot' },
  reset: { path: '/reset/:token' },
  // The optional path segment is never read: the error comes from the query (seed, section 2).
  login: {
    path: '/login/:error?',
    getHref: (redirect?: string) => (redirect === undefined ? '/login' : `/login?redirect=${encodeURIComponent(redirect)}`),
    /** The seed's message for a user who belongs to no organization (section 8). */
    noOrganizationHref: '/login?error=account',
  },
  /** The second step of a password sign-in (docs/console.md, Two-step sign-in): before /login/:error?, which it would match. */
  secondStep: { path: '/login/verify' },
  // '/' without an exact match: it also catches every unknown path.
  home: { path: '*', getHref: () => '/' },
  googleSignIn: {
    getHref: (token: string, redirect: string | null) =>
      `/auth/go/${encodeURIComponent(token)}${redirect === null ? '' : `?redirect=${encodeURIComponent(redirect)}`}`,
  },
  /** The invitation link's page (docs/console.md, Members). */
  invite: { path: '/invite/:token' },
  /** The link to agree to an owner's reset of one's second factors (docs/console.md, Two-step sign-in). */
  twoStepReset: { path: '/two-step-reset/:token' },
  /** The signed-in console (docs/console.md, Routes); its pages are routes below `/app`. */
  console: {
    path: '/app/*',
    getHref: () => '/app',
    overview: { path: 'orgs/:orgId', getHref: org },
    members: { path: 'orgs/:orgId/members', getHref: (organizationId: string) => `${org(organizationId)}/members` },
    sites: { path: 'orgs/:orgId/sites', getHref: (organizationId: string) => `${org(organizationId)}/sites` },
    domains: { path: 'orgs/:orgId/domains', getHref: (organizationId: string) => `${org(organizationId)}/domains` },
    sso: { path: 'orgs/:orgId/sso', getHref: (organizationId: string) => `${org(organizationId)}/sso` },
    history: { path: 'orgs/:orgId/history', getHref: (organizationId: string) => `${org(organizationId)}/history` },
    account: { path: 'account', getHref: () => '/app/account' },
  },
} as const;
