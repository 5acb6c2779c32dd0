// How a request finds its route: the paths Express matches (letter case, trailing slash) and those it refuses with the
// 404 problem.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let app: RunningApp;
let api: HttpClient;

beforeAll(async () => {
  app = await startApp();
  api = httpClient(app.baseUrl);
});

afterAll(async () => {
  await app.close();
});

describe('routing', () => {
  it('matches paths in any letter case and with a trailing slash, not with an encoded letter or another segment', async () => {
    for (const path of ['/health/live', '/HEALTH/Live', '/health/live/'])
      expect((await api.get(path)).body).toEqual({ live: true });
    for (const path of ['/h%65alth/live', '/healthz/live', '//health/live', '/health/live/x']) {
      const answer = await api.get(path);
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  it('answers HEAD from the GET route, and another method with the 404 problem', async () => {
    const head = await api.request('HEAD', '/health/live');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    for (const method of ['DELETE', 'OPTIONS']) {
      const answer = await api.request(method, '/health/live');
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ status: 404 });
    }
  });

  it('reaches routes with parameters and routes of every group, and times each by its pattern', async () => {
    expect((await api.get('/organizations/org_x')).status).toBe(401);
    expect((await api.get('/sessions')).status).toBe(401);
    expect((await api.get('/docs/openapi.json')).status).toBe(200);
    expect((await api.get('/organizations/%E0%A4%A')).status).toBe(400);
    const metrics = (await api.get('/metrics')).text;
    for (const route of ['/organizations/:id', '/sessions', '/docs/openapi.json', '/health/live']) {
      expect(metrics).toContain(`chorus_http_request_duration_seconds_count{method="GET",route="${route}"`);
    }
  });
});
