// helmet's security headers, with a Content-Security-Policy the SPA passes: everything from this
// origin, no inline script or style, images also as data: URLs, never framed, forms post here only.
import type { ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from '#config';
import { dataPrefixes } from './api-paths.js';

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
 * The headers helmet gives every answer under this config, worked out once by running helmet against a recording
 * response: every directive above is a constant, so a request needs a loop of setHeader, not helmet's middleware chain.
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

/**
 * The headers of the API's answers (OWASP's REST Security cheat sheet): the page's set for a document that loads
 * nothing, so a CSP of `default-src 'none'; frame-ancestors 'none'` and DENY framing. SECURITY.md, "Security headers".
 */
export function apiSecurityHeadersOf(page: SecurityHeaders): SecurityHeaders {
  const set: [string, string][] = [];
  for (const [name, value] of page.set) {
    const lower = name.toLowerCase();
    if (lower === 'content-security-policy') set.push([name, "default-src 'none';frame-ancestors 'none'"]);
    else if (lower === 'x-frame-options') set.push([name, 'DENY']);
    else if (!documentOnlyHeaders.has(lower)) set.push([name, value]);
  }
  return { set, removed: page.removed };
}

/** helmet's headers that only act on an HTML document a browser renders: not on the API's answers. */
const documentOnlyHeaders = new Set(['origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-xss-protection']);

/**
 * The first path segments whose every answer is the API's data (api-paths.ts); every other path, a page shares
 * (`/login`, `/auth`...), keeps the page's set. An HTML answer here would load nothing: the mistake fails closed.
 */
const apiSegments = new Set(dataPrefixes.map((prefix) => prefix.slice(1)));

/** Which set a request gets, from its URL as it arrived (before any parsing): the API's for the segments above, otherwise the page's. */
export function securityHeadersFor(page: SecurityHeaders, api: SecurityHeaders): (url: string) => SecurityHeaders {
  return (url) => {
    if (url.charCodeAt(0) !== 47 /* '/' */) return page;
    let end = 1;
    while (end < url.length) {
      const code = url.charCodeAt(end);
      if (code === 47 /* '/' */ || code === 63 /* '?' */) break;
      end += 1;
    }
    return apiSegments.has(url.slice(1, end)) ? api : page;
  };
}

/** Gives a response the security headers, in helmet's order. */
export function applySecurityHeaders(headers: SecurityHeaders, response: ServerResponse): void {
  for (const name of headers.removed) response.removeHeader(name);
  for (const [name, value] of headers.set) response.setHeader(name, value);
}
