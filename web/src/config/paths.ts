// Every route of the SPA and every page the SPA sends the browser to, in one place.
export const paths = {
  forgot: { path: '/forgot', getHref: () => '/forgot' },
  reset: { path: '/reset/:token' },
  // The optional path segment is never read: the error comes from the query (seed, section 2).
  login: { path: '/login/:error?', getHref: () => '/login' },
  // '/' without an exact match: it also catches every unknown path.
  home: { path: '*', getHref: () => '/' },
  googleSignIn: {
    getHref: (token: string, redirect: string | null) =>
      `/auth/go/${encodeURIComponent(token)}${redirect === null ? '' : `?redirect=${encodeURIComponent(redirect)}`}`,
  },
} as const;
