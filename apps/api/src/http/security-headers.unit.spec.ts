import { describe, expect, it } from '@jest/globals';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { loadConfig } from '#config';
import {
  apiSecurityHeadersOf,
  applySecurityHeaders,
  helmetFor,
  securityHeadersFor,
  securityHeadersOf,
} from './security-headers.js';

function response(): ServerResponse {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  response.setHeader('X-Powered-By', 'Express');
  return response;
}

function head(answer: ServerResponse): [string, unknown][] {
  return answer.getHeaderNames().map((name) => [name, answer.getHeader(name)]);
}

describe('securityHeadersOf', () => {
  it.each<[string, Record<string, string>]>([
    ['http', { PUBLIC_URL: 'http://localhost:3000' }],
    [
      'https, with a Sentry DSN',
      { PUBLIC_URL: 'https://chorus.example', SENTRY_DSN: 'https://key@o1.ingest.sentry.io/5' },
    ],
  ])('gives an answer the same headers as helmet itself, in the same order (%s)', (_name, env) => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/chorus-security-headers-unit', ...env });
    const byHelmet = response();
    let next = 0;
    helmetFor(config)(new IncomingMessage(new Socket()) as never, byHelmet as never, () => (next += 1));
    const byList = response();
    applySecurityHeaders(securityHeadersOf(config), byList);

    expect(next).toBe(1);
    expect(head(byList)).toEqual(head(byHelmet));
    expect(byList.getHeader('x-powered-by')).toBeUndefined();
    expect(String(byList.getHeader('content-security-policy'))).toContain("frame-ancestors 'none'");
  });
});

describe('apiSecurityHeadersOf', () => {
  it.each<[string, Record<string, string>, [string, string][]]>([
    ['http', { PUBLIC_URL: 'http://localhost:3000' }, []],
    [
      'https, with a Sentry DSN',
      { PUBLIC_URL: 'https://chorus.example', SENTRY_DSN: 'https://key@o1.ingest.sentry.io/5' },
      [['strict-transport-security', 'max-age=31536000; includeSubDomains']],
    ],
  ])("is the page's set made for answers that load nothing, HSTS as the page has it (%s)", (_name, env, hsts) => {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/chorus-security-headers-unit', ...env });
    const answer = response();
    applySecurityHeaders(apiSecurityHeadersOf(securityHeadersOf(config)), answer);

    expect(head(answer)).toEqual([
      ['content-security-policy', "default-src 'none';frame-ancestors 'none'"],
      ['cross-origin-opener-policy', 'same-origin'],
      ['cross-origin-resource-policy', 'same-origin'],
      ['referrer-policy', 'no-referrer'],
      ...hsts,
      ['x-content-type-options', 'nosniff'],
      ['x-frame-options', 'DENY'],
      ['x-permitted-cross-domain-policies', 'none'],
    ]);
  });
});

describe('securityHeadersFor', () => {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/chorus-security-headers-unit' });
  const page = securityHeadersOf(config);
  const api = apiSecurityHeadersOf(page);
  const headersOf = securityHeadersFor(page, api);

  it.each([
    '/health',
    '/health/ready',
    '/health?verbose',
    '/organizations',
    '/organizations/org_1/members?x=1',
    '/metrics',
    '/session',
    '/sessions',
    '/account/password',
    '/invitations/token',
    '/audit/correlations/c',
    '/billing/events',
  ])('gives the API set to %s', (url) => {
    expect(headersOf(url)).toBe(api);
  });

  it.each([
    '/',
    '/login',
    '/login/google',
    '/forgot',
    '/reset/token',
    '/invite/token',
    '/app/orgs',
    '/docs',
    '/docs/docs.css',
    '/assets/index-abc.js',
    '/favicon.ico',
    '/auth/go/token',
    '/logout',
    '/nope',
    '/HEALTH',
    '/Organizations/org_1',
    '/%68ealth',
    '/healthz',
    'http://localhost/health',
    '*',
    '',
  ])("gives the page's set to %s", (url) => {
    expect(headersOf(url)).toBe(page);
  });
});
