import { describe, expect, it } from '@jest/globals';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { loadConfig } from '#config';
import { applySecurityHeaders, helmetFor, securityHeadersOf } from './security-headers.js';

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
    ['https, with a Sentry DSN', { PUBLIC_URL: 'https://chorus.example', SENTRY_DSN: 'https://key@o1.ingest.sentry.io/5' }],
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
