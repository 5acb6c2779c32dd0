// The API's reference (docs/service.md, Operations: /docs): the OpenAPI document describes exactly
// the routes the server's router has, so a route added without words fails here, naming itself.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { OpenApiDocument } from '#api';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { routerRoutes } from '../support/router-routes.js';
import { startApp, type RunningApp } from '../support/start-app.js';

/** The file that declares a controller class, for the failure message. */
function fileOfClass(className: string, directory = 'apps'): string | undefined {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      const found = fileOfClass(className, full);
      if (found !== undefined) return found;
    } else if (entry.name.endsWith('.ts') && readFileSync(full, 'utf8').includes(`class ${className} `)) {
      return full;
    }
  }
  return undefined;
}

function documentedRoutes(document: OpenApiDocument): Set<string> {
  const keys = new Set<string>();
  for (const [documentedPath, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations))
      keys.add(`${method.toUpperCase()} ${documentedPath.replace(/\{(\w+)\}/g, ':$1')}`);
  }
  return keys;
}

let app: RunningApp;
let api: HttpClient;
let document: OpenApiDocument;

beforeAll(async () => {
  app = await startApp();
  api = httpClient(app.baseUrl);
  const answer = await api.get('/docs/openapi.json');
  expect(answer.status).toBe(200);
  document = answer.body as OpenApiDocument;
});
afterAll(async () => {
  await app.close();
});

describe('GET /docs/openapi.json against the router', () => {
  it('documents every route the server has', () => {
    const documented = documentedRoutes(document);
    const missing = [...routerRoutes(app)].filter(([key]) => !documented.has(key));
    const explained = missing.map(([key, handler]) => {
      const file = fileOfClass(handler.split('.')[0] ?? '') ?? 'its controller';
      return `${key} (${handler} in ${file}) has no words: add @Operation({ summary: '...' }) above ${handler.split('.')[1] ?? 'the method'} there`;
    });
    expect(explained).toEqual([]);
  });

  it('documents no route the server does not have', () => {
    const routed = routerRoutes(app);
    const stale = [...documentedRoutes(document)].filter((key) => !routed.has(key));
    expect(stale.map((key) => `${key} is documented but not routed`)).toEqual([]);
  });

  it("takes bodies, queries, path parameters, statuses and access from the controllers' own schemas and rules", () => {
    expect(document.openapi).toBe('3.1.0');
    const create = document.paths['/organizations']?.post;
    expect(create?.requestBody?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      properties: { name: expect.any(Object) },
      required: ['name'],
    });
    expect(create?.responses['201']).toBeDefined();
    expect(create?.security).toEqual([{ apiKey: ['organizations:write'] }]);

    const history = document.paths['/organizations/{id}/history']?.get;
    expect(history?.parameters.map(({ name, in: where }) => `${where}:${name}`)).toEqual(
      expect.arrayContaining(['path:id', 'query:fromRevision', 'query:limit']),
    );
    expect(history?.security).toEqual([{ apiKey: ['audit:read'] }, { session: [] }]);

    // Checked arguments (@CheckedParam, @CheckedQuery) are documented as the pipes they run.
    const read = document.paths['/organizations/{id}']?.get;
    const idOf = (operation: typeof read) =>
      operation?.parameters.find(({ name, in: where }) => where === 'path' && name === 'id');
    expect(read?.parameters.map(({ name, in: where }) => `${where}:${name}`)).toEqual([
      'path:id',
      'query:minPosition',
      'query:members',
    ]);
    expect(idOf(read)?.schema).toEqual(idOf(document.paths['/organizations/{id}/plan']?.post)?.schema);
    expect(idOf(read)?.schema).toHaveProperty('pattern');

    const login = document.paths['/login']?.post;
    expect(login?.responses['204']).toBeDefined();
    expect(login?.responses['401']?.content?.['application/problem+json']).toBeDefined();
    expect(login?.requestBody?.content['application/json']?.schema).toMatchObject({
      properties: { username: expect.any(Object), password: expect.any(Object) },
    });
    // Unknown fields are refused (z.strictObject), and the document says so.
    expect(login?.requestBody?.content['application/json']?.schema).toMatchObject({ additionalProperties: false });
  });
});

describe('GET /docs', () => {
  it('is a page for people listing every operation, with no script', async () => {
    const page = await api.get('/docs', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/<script/i);
    expect(page.text).toContain('<link rel="stylesheet" href="/docs/docs.css">');
    for (const key of documentedRoutes(document)) {
      const [method = '', routePath = ''] = key.split(' ');
      expect(page.text).toContain(`>${method}</span> <code>${routePath.replace(/:(\w+)/g, '{$1}')}</code>`);
    }
    const styles = await api.get('/docs/docs.css');
    expect(styles.status).toBe(200);
    expect(styles.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('puts nothing of itself on the sign-in page', async () => {
    const login = await api.get('/login', { headers: { accept: 'text/html' } });
    expect(login.status).toBe(200);
    expect(login.text).not.toContain('/docs');
  });
});
