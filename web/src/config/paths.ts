const org = (organizationId: string) => `/app/orgs/${encodeURIComponent(organizationId)}`;

export const paths = {
  forgot: { path: '/forgot', getHref: () => '/forgot' },
  reset: { path: '/reset/:token' },
  // The optional path segment is never read: the error comes from the query (seed, section 2).
  login: {
    path: '/login/:error?',
    getHref: (redirect?: string) =>
      redirect === undefined ? '/login' : `/login?redirect=${encodeURIComponent(redirect)}`,
    /** The seed's message for a user who belongs to no organization (section 8). */
    noOrganizationHref: '/login?error=account',
  },
  /** Routed before /login/:error?, which it would match. */
  secondStep: { path: '/login/verify' },
  // '/' without an exact match: it also catches every unknown path.
  home: { path: '*', getHref: () => '/' },
  googleSignIn: {
    getHref: (token: string, redirect: string | null) =>
      `/auth/go/${encodeURIComponent(token)}${redirect === null ? '' : `?redirect=${encodeURIComponent(redirect)}`}`,
  },
  invite: { path: '/invite/:token' },
  twoStepReset: { path: '/two-step-reset/:token' },
  console: {
    path: '/app/*',
    getHref: () => '/app',
    overview: { path: 'orgs/:orgId', getHref: org },
    members: { path: 'orgs/:orgId/members', getHref: (organizationId: string) => `${org(organizationId)}/members` },
    sites: { path: 'orgs/:orgId/sites', getHref: (organizationId: string) => `${org(organizationId)}/sites` },
    domains: { path: 'orgs/:orgId/domains', getHref: (organizationId: string) => `${org(organizationId)}/domains` },
    sso: { path: 'orgs/:orgId/sso', getHref: (organizationId: string) => `${org(organizationId)}/sso` },
    history: { path: 'orgs/:orgId/history', getHref: (organizationId: string) => `${org(organizationId)}/history` },
    webhooks: { path: 'orgs/:orgId/webhooks', getHref: (organizationId: string) => `${org(organizationId)}/webhooks` },
    directory: {
      path: 'orgs/:orgId/directory',
      getHref: (organizationId: string) => `${org(organizationId)}/directory`,
    },
    account: { path: 'account', getHref: () => '/app/account' },
  },
} as const;
