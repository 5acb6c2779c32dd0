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

/**
 * The headers of the API's answers (JSON, problem+json, the metrics' text), after OWASP's REST Security
 * cheat sheet: the page's set made for a document that loads nothing. The CSP is `default-src 'none';
 * frame-ancestors 'none'` (stricter than the page's: nothing may load or run, nothing may frame it),
 * X-Frame-Options DENY (the page's SAMEORIGIN, for browsers without frame-ancestors), and the rest as the
 * page has it (cross-origin opener and resource policies, Referrer-Policy, HSTS when sent, nosniff,
 * X-Permitted-Cross-Domain-Policies). Left out: the headers that only act on an HTML document a browser
 * renders (Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options, X-XSS-Protection: 0).
 * SECURITY.md, "Security headers", says why; a page's answer keeps the whole set.
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
 * The first path segments whose every answer is the API's data (api-paths.ts, `dataPrefixes`: JSON,
 * problem+json, the metrics' text), in the routes' case: their requests get the API's set. Every other
 * path keeps the page's set: the SPA's pages and files (`/assets`), `/docs` (an HTML page), the paths a
 * page shares with the API (`/login`, `/forgot`, `/reset`, `/logout`), `/auth` (Google's redirects,
 * whose body is HTML for a browser), and anything else, `/HEALTH` included (the SPA answers a page there
 * to a browser; the same rule as its own, `isApiPath`). A request on a path listed here that were
 * answered with HTML would still load nothing under the API's CSP: the mistake fails closed.
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
