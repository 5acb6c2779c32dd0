// helmet's security headers, with a Content-Security-Policy the SPA passes: everything from this
// origin, no inline script or style, images also as data: URLs, never framed, forms post here only.
import type { ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from '#config';

/** What helmet does to every answer: the headers it sets, in its order, and the ones it removes. */
export type SecurityHeaders = {
  readonly set: readonly (readonly [name: string, value: string])[];
  readonly removed: readonly string[];
};

/** helmet, configured: the source of the headers (securityHeadersOf runs it once). */
export function helmetFor(config: Config) {
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

/**
 * The headers helmet gives every answer under this config, worked out once: helmet is run against a
 * response that records what is done to it. Every directive above is a constant (none depends on the
 * request), so the answer is the same for every request; setting them from this list costs a loop of
 * setHeader instead of helmet's chain of thirteen middleware, which rebuilt the same list per request
 * (about 7% of GET /health's CPU, bench/http/request-features.mjs).
 */
export function securityHeadersOf(config: Config): SecurityHeaders {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`helmet set ${name} to a ${typeof value}: securityHeadersOf expects strings`);
      set.push([name, value]);
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  let failure: unknown;
  let called = false;
  helmetFor(config)({} as never, recorder as never, (error?: unknown) => {
    called = true;
    failure = error;
  });
  // helmet calls next synchronously, without an error, for directives that are all constants.
  if (!called || failure !== undefined) throw new Error(`helmet did not finish synchronously: ${String(failure)}`);
  return { set, removed };
}

/** Gives a response the security headers, in helmet's order. */
export function applySecurityHeaders(headers: SecurityHeaders, response: ServerResponse): void {
  for (const name of headers.removed) response.removeHeader(name);
  for (const [name, value] of headers.set) response.setHeader(name, value);
}
