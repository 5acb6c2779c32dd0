// helmet's security headers, with a Content-Security-Policy the SPA passes.
import type { ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { Config } from '#config';
import { dataPrefixes } from './api-paths.js';

export type SecurityHeaders = {
  readonly set: readonly (readonly [name: string, value: string])[];
  readonly removed: readonly string[];
};

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
 * Run once against a recording response: every directive is a constant, so a request needs only a loop of setHeader.
 */
export function securityHeadersOf(config: Config): SecurityHeaders {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string')
        throw new Error(`helmet set ${name} to a ${typeof value}: securityHeadersOf expects strings`);
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

/** A document that loads nothing: `default-src 'none'; frame-ancestors 'none'` (SECURITY.md, "Security headers"). */
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

const documentOnlyHeaders = new Set([
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-xss-protection',
]);

/** Pages share other paths (`/login`, `/auth`...); an HTML answer here would load nothing: the mistake fails closed. */
const apiSegments = new Set(dataPrefixes.map((prefix) => prefix.slice(1)));

/** From the URL as it arrived, before any parsing. */
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

export function applySecurityHeaders(headers: SecurityHeaders, response: ServerResponse): void {
  for (const name of headers.removed) response.removeHeader(name);
  for (const [name, value] of headers.set) response.setHeader(name, value);
}
