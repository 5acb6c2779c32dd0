// The sign-in SPA served by the API (docs/api.md, Sign-in): its routes, the page configuration written
// into index.html, the XSRF cookie on every HTML answer, static files and security headers.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { webRoot } from '#api';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Answer } from '../support/browser.js';

let app: AuthApp;

beforeAll(async () => {
  app = await startAuthApp({
    PRODUCT_NAME: 'Chorus </script><script>alert(1)</script>',
    GOOGLE_SIGN_IN_TOKEN: 'page-token-7',
    SENTRY_DSN: 'https://public@o1.ingest.example.io/42',
    RELEASE_ID: 'release-2030.1',
    UPGRADE_URL: 'https://pricing.example.com/chorus?from=console',
    SUPPORT_EMAIL: 'help@chorus.example',
  });
});
afterAll(async () => {
  await app.close();
});

function pageConfig(html: string): unknown {
  const match = /<script id="chorus-config" type="application\/json">([\s\S]*?)<\/script>/.exec(html);
  return match?.[1] === undefined ? undefined : JSON.parse(match[1]);
}

function expectSecurityHeaders(answer: Answer): void {
  const csp = answer.headers.get('content-security-policy') ?? '';
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self' https://o1.ingest.example.io",
    "frame-ancestors 'none'",
    "form-action 'self'",
    "object-src 'none'",
    "base-uri 'self'",
  ]) {
    expect(csp.split(';').map((part) => part.trim())).toContain(directive);
  }
  expect(csp).not.toContain('unsafe-inline');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  expect(answer.headers.get('origin-agent-cluster')).toBe('?1');
  expect(answer.headers.get('x-xss-protection')).toBe('0');
  expect(answer.headers.get('x-powered-by')).toBeNull();
}

/** The API's answers (JSON, problem+json): a set for an answer that loads nothing (SECURITY.md, "Security headers"). */
function expectApiSecurityHeaders(answer: Answer): void {
  expect(answer.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
  expect(answer.headers.get('x-frame-options')).toBe('DENY');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(answer.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(answer.headers.get('x-permitted-cross-domain-policies')).toBe('none');
  for (const documentOnly of [
    'origin-agent-cluster',
    'x-dns-prefetch-control',
    'x-download-options',
    'x-xss-protection',
    'x-powered-by',
  ]) {
    expect(answer.headers.get(documentOnly)).toBeNull();
  }
}

describe('the SPA', () => {
  it.each(['/', '/login', '/login/google', '/forgot', '/reset/some-reset-token'])(
    'is the answer to GET %s, never cached',
    async (path) => {
      const answer = await app.browser().open(path);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.text).toContain('<div id="root"></div>');
      expectSecurityHeaders(answer);
    },
  );

  it('carries the running configuration, escaped so it cannot end its script element', async () => {
    const answer = await app.browser().open('/login');
    expect(pageConfig(answer.text)).toEqual({
      productName: 'Chorus </script><script>alert(1)</script>',
      googleSignInToken: 'page-token-7',
      sentryDsn: 'https://public@o1.ingest.example.io/42',
      releaseId: 'release-2030.1',
      upgradeUrl: 'https://pricing.example.com/chorus?from=console',
      supportEmail: 'help@chorus.example',
    });
    expect(answer.text).not.toContain('<script>alert(1)');
  });

  it('describes the product to search engines in one short meta description (Lighthouse, SEO)', async () => {
    const answer = await app.browser().open('/login');
    const description = /<meta\s+name="description"\s+content="([^"]*)"\s*\/?>/.exec(answer.text)?.[1];
    expect(description).toMatch(/^Chorus: feedback and analytics for organizations\. Sign in/);
    // Search engines cut a description at about 160 characters.
    expect(description?.length).toBeLessThanOrEqual(160);
  });

  it('sets XSRF-TOKEN readable by script (SameSite=Lax), bound to an HttpOnly pre-session cookie', async () => {
    const answer = await app.browser().open('/');
    const xsrf = answer.setCookies.find((cookie) => cookie.name === 'XSRF-TOKEN');
    expect(xsrf?.value).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(xsrf?.attributes).toMatchObject({ samesite: 'Lax', path: '/' });
    expect(xsrf?.attributes.httponly).toBeUndefined();
    expect(answer.setCookies.find((cookie) => cookie.name === 'chorus_presession')?.attributes).toMatchObject({
      httponly: true,
      samesite: 'Lax',
    });
  });

  it('answers other pages a browser asks for, but not API paths or non-HTML requests', async () => {
    const page = await app.browser().open('/some/page');
    expect(page.status).toBe(200);
    expect(pageConfig(page.text)).toBeDefined();
    const json = await app.browser().get('/some/page');
    expect(json.status).toBe(404);
    expect(json.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await app.browser().open('/session')).status).toBe(401);
  });

  it('answers HEAD with the headers and no body', async () => {
    const answer = await app.browser().request('HEAD', '/login', { headers: { accept: 'text/html' } });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('');
  });
});

describe('static files', () => {
  const assets = readdirSync(join(webRoot(), 'assets'));
  const script = assets.find((file) => file.endsWith('.js'));

  it('serves the built assets, cached for a year since their names carry their hash', async () => {
    const answer = await app.browser().get(`/assets/${script}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  /** The bytes as they cross the wire, undecoded (fetch would decode them). */
  const onTheWire = (path: string, acceptEncoding?: string) =>
    new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const url = new URL(path, app.baseUrl);
      request(
        url,
        { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        },
      )
        .on('error', reject)
        .end();
    });

  it.each([
    ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['br;q=0, gzip;q=1', 'gzip', gunzipSync],
  ])(
    'sends the largest script precompressed to a browser that accepts %j (%s), the same bytes once decoded',
    async (accept, encoding, decode) => {
      const largest = assets
        .filter((file) => file.endsWith('.js'))
        .sort(
          (a, b) =>
            readFileSync(join(webRoot(), 'assets', b)).length - readFileSync(join(webRoot(), 'assets', a)).length,
        )[0];
      const original = readFileSync(join(webRoot(), 'assets', `${largest}`));
      const answer = await onTheWire(`/assets/${largest}`, accept);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.headers.vary).toContain('Accept-Encoding');
      expect(Number(answer.headers['content-length'])).toBe(answer.body.length);
      expect(answer.body.length).toBeLessThan(original.length / 2);
      expect(decode(answer.body).equals(original)).toBe(true);
    },
  );

  it('sends the file as it is to a client that accepts no encoding', async () => {
    const original = readFileSync(join(webRoot(), 'assets', `${script}`));
    const answer = await onTheWire(`/assets/${script}`);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.equals(original)).toBe(true);
  });

  it('does not serve source maps or anything outside dist/web', async () => {
    expect((await app.browser().get(`/assets/${script}.map`)).status).toBe(404);
    expect((await app.browser().get('/assets/..%2f..%2fpackage.json')).status).toBe(404);
    expect((await app.browser().get('/%2e%2e/%2e%2e/package.json')).status).toBe(404);
  });

  it.each([
    '/.vite/manifest.json',
    '/%2evite/manifest.json',
    '/.vite%2fmanifest.json',
    '/assets/%2e%2e/.vite/manifest.json',
    '/.VITE/manifest.json',
  ])('does not serve build metadata: %s', async (path) => {
    expect(existsSync(join(webRoot(), '.vite', 'manifest.json'))).toBe(true);
    const answer = await app.browser().get(path);
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('"isEntry"');
  });
});

describe('security headers', () => {
  it("are the page's whole set on every page, /docs and the SPA's files, and on a page path's refusals", async () => {
    expectSecurityHeaders(await app.browser().open('/forgot'));
    const docs = await app.browser().open('/docs');
    expect(docs.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectSecurityHeaders(docs);
    const browser = app.browser();
    await browser.open('/login');
    const refused = await browser.post('/login', { username: 'x', password: 'y' }, { xsrf: false });
    expect(refused.status).toBe(403);
    expectSecurityHeaders(refused);
  });

  it("are the API's set on JSON answers and on the API's refusals and errors", async () => {
    const session = await app.browser().get('/session');
    expect(session.headers.get('content-type')).toContain('json');
    expectApiSecurityHeaders(session);
    const health = await app.browser().get('/health');
    expect(health.status).toBe(200);
    expectApiSecurityHeaders(health);
    // A browser asking for HTML on an API path gets the API's answer, and its headers.
    const asked = await app.browser().open('/health');
    expect(asked.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expectApiSecurityHeaders(asked);
    // Not on /HEALTH: the SPA answers a browser there with a page, which keeps the page's set.
    const page = await app.browser().open('/HEALTH');
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expectSecurityHeaders(page);
    const unauthorized = await app.browser().get('/organizations/org_missing');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expectApiSecurityHeaders(unauthorized);
    const missing = await app.browser().get('/organizations/org_missing/nothing-here');
    expect(missing.status).toBe(404);
    expectApiSecurityHeaders(missing);
  });
});

describe('behind https', () => {
  it('marks cookies Secure with the __Host- prefix, and asks for HSTS', async () => {
    const secure = await startAuthApp({ PUBLIC_URL: 'https://chorus.example' });
    try {
      const answer = await secure.browser().open('/login');
      const preSession = answer.setCookies.find((cookie) => cookie.name === '__Host-chorus_presession');
      expect(preSession?.attributes).toMatchObject({ secure: true, path: '/', httponly: true });
      expect(preSession?.attributes.domain).toBeUndefined();
      expect(answer.setCookies.find((cookie) => cookie.name === 'XSRF-TOKEN')?.attributes.secure).toBe(true);
      expect(answer.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect((await secure.browser().get('/health')).headers.get('strict-transport-security')).toBe(
        'max-age=31536000; includeSubDomains',
      );
    } finally {
      await secure.close();
    }
  });
});
