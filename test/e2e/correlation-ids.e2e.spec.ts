// A caller of one organization sends X-Correlation-Id values seen in another's history: the operators'
// correlation view of those ids must still tell only the other organization's story.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp;
let operator: HttpClient;
let demo: HttpClient;
let evil: HttpClient;

type Correlated = { streamId: string; type: string; metadata: Record<string, unknown> };

beforeAll(async () => {
  running = await startApp();
  const admin = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['organizations:write']) });
  for (const id of ['demo', 'evil']) {
    expect((await admin.post('/organizations', { name: id, id })).status).toBe(201);
    expect((await admin.post(`/organizations/${id}/plan`, { line: 'classic', plan: 'professional' })).status).toBe(200);
    expect((await admin.put(`/organizations/${id}/limits`, { contentSections: 10 })).status).toBe(200);
  }
  const scopes = ['organizations:read', 'organizations:write', 'audit:read'] as const;
  demo = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, scopes, 'demo', 'demo') });
  evil = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, scopes, 'evil', 'evil') });
  operator = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['audit:read']) });
}, 60_000);

afterAll(async () => {
  await running.close();
});

const addSite = (
  as: HttpClient,
  organizationId: string,
  name: string,
  headers: Record<string, string> = {},
): Promise<HttpResponse> =>
  as.post(`/organizations/${organizationId}/sites`, { name, hostname: `${name}.example` }, { headers });

async function operatorsView(correlationId: string, minPosition: number): Promise<Correlated[]> {
  const answer = await operator.get(
    `/audit/correlations/${encodeURIComponent(correlationId)}?minPosition=${minPosition}`,
  );
  expect(answer.status).toBe(200);
  return answer.body.events as Correlated[];
}

describe('X-Correlation-Id from a caller', () => {
  it("never joins another organization's correlation, whichever of its ids is sent", async () => {
    const own = await addSite(demo, 'demo', 'shop');
    const chosen = await addSite(demo, 'demo', 'blog', { 'X-Correlation-Id': 'release-2031-07' });
    expect([own.status, chosen.status]).toEqual([201, 201]);
    // The ids demo's history shows: Chorus's own, and the one demo's caller chose (behind its name).
    const seen = [own.headers.get('x-correlation-id') ?? '', chosen.headers.get('x-correlation-id') ?? ''];

    let last = 0;
    for (const [index, correlationId] of [...seen, 'release-2031-07'].entries()) {
      const sent = await addSite(evil, 'evil', `copy-${index}`, { 'X-Correlation-Id': correlationId });
      if (sent.status !== 201) throw new Error(sent.text);
      last = sent.body.position as number;
    }

    for (const correlationId of seen) {
      const events = await operatorsView(correlationId, last);
      expect(events.map((event) => [event.streamId, event.type])).toEqual([['organization-demo', 'SiteAdded']]);
    }
  });

  it('still lets the caller find its own request by the id it sent, behind its own name', async () => {
    const sent = await addSite(evil, 'evil', 'mine', { 'X-Correlation-Id': 'evil-trace-7' });
    const answered = sent.headers.get('x-correlation-id') ?? '';

    expect(answered).toMatch(/^api-key:[0-9a-f]{24}:evil-trace-7$/);
    const inOwnOrganization = await evil.get(
      `/organizations/evil/correlations/${encodeURIComponent(answered)}?minPosition=${sent.body.position}`,
    );
    expect(inOwnOrganization.status).toBe(200);
    expect(inOwnOrganization.body.entries).toHaveLength(1);
    const events = await operatorsView(answered, sent.body.position as number);
    expect(events.map((event) => [event.streamId, event.metadata.correlationId])).toEqual([
      ['organization-evil', answered],
    ]);
  });

  it('is not adopted from an anonymous caller, whose value is kept only as a foreign field', async () => {
    const anonymous = httpClient(running.baseUrl);
    const credentials = { username: 'nobody@example.com', password: 'wrong password' };
    const answer = await anonymous.post('/login', credentials, { headers: { 'X-Correlation-Id': 'release-2031-07' } });

    const correlationId = answer.headers.get('x-correlation-id');
    expect(correlationId).toMatch(/^[0-9a-f-]{36}$/);
    const line = running.logs.find(
      (logged) => logged.msg === 'request completed' && logged.correlationId === correlationId,
    );
    expect(line).toMatchObject({ path: '/login', callerCorrelationId: 'release-2031-07' });
  });
});
