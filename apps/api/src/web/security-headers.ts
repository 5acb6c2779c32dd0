// helmet's security headers, with a Content-Security-Policy the SPA passes: everything from this
// origin, no inline script or style, images also as data: URLs, never framed, forms post here only.
import helmet from 'helmet';
import type { Config } from '#config';

export function securityHeaders(config: Config) {
  const https = config.publicUrl.startsWith('https://');
  // The SPA reports errors to the Sentry DSN's origin (web/src/lib/sentry-reporter.ts).
  const sentryOrigin = config.sentryDsn === undefined ? [] : [new URL(config.sentryDsn).origin];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...sentryOrigin],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // Reset links carry their token in the path: never send it on as a Referer.
    referrerPolicy: { policy: 'no-referrer' },
  });
}
