// docs/api.md is the HTTP contract: every route the running server serves is in it, and in the OpenAPI document
// the server publishes (/docs/openapi.json). A route added without its line in docs/api.md fails here, naming
// itself and its handler; so does a call docs/api.md names that the server no longer serves.
//
// The matching rule: docs/api.md mentions a route when one of its `code spans` holds the method in capitals,
// one space, and the route's whole path (`GET /organizations/:id/history`), the path ending at the span's end,
// a space, `?` or `[` (so `GET /organizations/:id/state?asOf=` and `GET /auth/sso/:orgId[?redirect=]` count).
// Path parameters may be written `:name` or `{name}`, with the name the route has; a trailing `/` is ignored.
// Several calls in one span each need their method (`GET /docs`, `GET /docs/openapi.json`); `.../:domain`
// shorthand does not count.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenApiDocument } from '#api';
import { httpClient } from '../support/http-client.js';
import { routerRoutes } from '../support/router-routes.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const root = join(import.meta.dirname, '../..');
const contractFile = 'docs/api.md';

/** `METHOD /path` with `{name}` read as `:name` and no trailing slash (but `/` itself). */
function routeKey(method: string, path: string): string {
  const normalized = path.replace(/\{(\w+)\}/g, ':$1').replace(/(.)\/+$/, '$1');
  return `${method.toUpperCase()} ${normalized}`;
}

/** Every `METHOD /path` in a code span of the Markdown text, by the rule above. */
function mentionedRoutes(markdown: string): Set<string> {
  const mentioned = new Set<string>();
  for (const [, , span = ''] of markdown.matchAll(/(`+)([^`]+?)\1(?!`)/g)) {
    for (const [, method = '', path = ''] of span.matchAll(/(?:^|\s)(GET|POST|PUT|PATCH|DELETE) (\/[^\s?[\]`]*)/g))
      mentioned.add(routeKey(method, path));
  }
  return mentioned;
}

/**
 * Pages the SPA middleware serves to a browser (apps/api/src/web/spa.middleware.ts): docs/api.md names them
 * with their method, but they are no route of the router.
 */
const spaPages = new Set([
  'GET /',
  'GET /login',
  'GET /login/:error',
  'GET /login/verify',
  'GET /forgot',
  'GET /reset/:token',
  'GET /invite/:token',
]);

let app: RunningApp;
let routes: Map<string, string>;
let published: Set<string>;
let mentioned: Set<string>;

beforeAll(async () => {
  app = await startApp();
  routes = routerRoutes(app);
  const answer = await httpClient(app.baseUrl).get('/docs/openapi.json');
  expect(answer.status).toBe(200);
  const document = answer.body as OpenApiDocument;
  published = new Set(
    Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => routeKey(method, path)),
    ),
  );
  mentioned = mentionedRoutes(readFileSync(join(root, contractFile), 'utf8'));
});
afterAll(async () => {
  await app.close();
});

describe('the matching rule', () => {
  it('reads `:name` and `{name}`, ends a path at a query or an optional part, and needs a method per call', () => {
    const text = [
      '| `GET /organizations/:id/state?asOfRevision=N` or `?asOf=` | `POST /ofrep/v1/evaluate/flags/{key}` `{context}` |',
      '`GET /auth/sso/:orgId[?redirect=]`, `GET /auth/go/`, `GET /docs`, `/docs/openapi.json`, `DELETE .../:domain`',
      '``PUT /organizations/:id/limits``, GET /not/in/code',
    ].join('\n');
    expect([...mentionedRoutes(text)].sort()).toEqual([
      'GET /auth/go',
      'GET /auth/sso/:orgId',
      'GET /docs',
      'GET /organizations/:id/state',
      'POST /ofrep/v1/evaluate/flags/:key',
      'PUT /organizations/:id/limits',
    ]);
  });
});

describe(`${contractFile} against the running server`, () => {
  it('finds the routes', () => {
    expect(routes.size).toBeGreaterThan(50);
    expect(routes.get('POST /login')).toBe('SignInController.login');
  });

  it(`mentions every route the server serves in ${contractFile}`, () => {
    const missing = [...routes]
      .filter(([key]) => !mentioned.has(key))
      .map(([key, handler]) => `${key} (${handler}) is not in ${contractFile}`);
    expect(missing).toEqual([]);
  });

  it('describes every route the server serves in /docs/openapi.json', () => {
    const missing = [...routes]
      .filter(([key]) => !published.has(key))
      .map(([key, handler]) => `${key} (${handler}) is not in /docs/openapi.json`);
    expect(missing).toEqual([]);
  });

  it(`names in ${contractFile} no call the server does not serve`, () => {
    const stale = [...mentioned]
      .filter((key) => !routes.has(key) && !spaPages.has(key))
      .map((key) => `${key} is in ${contractFile} but not served`);
    expect(stale).toEqual([]);
  });
});
