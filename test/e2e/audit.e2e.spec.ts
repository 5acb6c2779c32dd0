// Auditors over HTTP: history, state at any revision or instant, correlations, access.
// The scripted history is recorded with an injected clock before the server starts on the same DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig } from '#config';
import { foldOrganization, organizationView, type OrganizationEvent } from '#domain';
import { EVENT_STORE, SqliteEventStore, type EventStore } from '#event-store';
import { createApp, signBillingPayload } from '#api';
import {
  recordScriptedHistory,
  recordedAtOf,
  scriptCatalogue,
  ScriptClock,
  SCRIPT_STEP_MS,
} from '../support/scripted-history.js';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';

const organizationId = 'audited';
const secret = 'whsec_e2e_audit_secret_0123456789';
let dataDir: string;
let app: NestExpressApplication;
let store: EventStore;
let eventCount: number;
let auditor: HttpClient;
let reader: HttpClient;
let writer: HttpClient;
let anonymous: HttpClient;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-audit-'));
  const clock = new ScriptClock();
  const scriptStore = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite'), now: clock.now });
  eventCount = await recordScriptedHistory(scriptStore, clock, organizationId);
  await scriptStore.close();

  const config = loadConfig({
    NODE_ENV: 'test',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    BILLING_WEBHOOK_SECRET: secret,
    PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
  });
  app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  store = app.get<EventStore>(EVENT_STORE);
  const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  auditor = httpClient(baseUrl, { apiKey: await createApiKey(app, ['audit:read']) });
  reader = httpClient(baseUrl, { apiKey: await createApiKey(app, ['organizations:read']) });
  writer = httpClient(baseUrl, { apiKey: await createApiKey(app, ['organizations:read', 'organizations:write']) });
  anonymous = httpClient(baseUrl);
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type HistoryEventAnswer = {
  id: string;
  streamId: string;
  type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  revision: number;
  position: number;
  recordedAt: string;
};

async function fullHistory(): Promise<HistoryEventAnswer[]> {
  const response = await auditor.get(`/organizations/${organizationId}/history?limit=1000`);
  expect(response.status).toBe(200);
  return response.body.events as HistoryEventAnswer[];
}

const foldOfFirst = (events: HistoryEventAnswer[], count: number) => {
  const state = foldOrganization(
    events.slice(0, count).map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent),
  );
  if (!state.exists) throw new Error('no organization');
  return organizationView(state, scriptCatalogue());
};

function expectProblem(response: HttpResponse, status: number, code: string): void {
  expect({ status: response.status, code: response.body?.code }).toEqual({ status, code });
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
}

describe('GET /organizations/:id/history', () => {
  it('answers every event in order with type, data, metadata, revision, position and recorded time', async () => {
    const response = await auditor.get(`/organizations/${organizationId}/history`);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ organizationId, nextFromRevision: eventCount, hasMore: false });
    const events = response.body.events as HistoryEventAnswer[];
    expect(events.map((event) => event.revision)).toEqual(
      Array.from({ length: eventCount }, (_unused, revision) => revision),
    );
    expect(events.map((event) => event.recordedAt)).toEqual(
      events.map((_event, revision) => recordedAtOf(revision).toISOString()),
    );
    expect(events[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      streamId: `organization-${organizationId}`,
      type: 'OrganizationCreated',
      data: { id: organizationId, name: 'Audited Ltd' },
      metadata: {
        actor: 'cli',
        correlationId: 'script-audited-0',
        causationId: 'script-audited-0',
        commandType: 'CreateOrganization',
        cliCommand: 'audit-script',
      },
      revision: 0,
      position: expect.any(Number),
      recordedAt: recordedAtOf(0).toISOString(),
    });
    const positions = events.map((event) => event.position);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('pages: each event exactly once, following nextFromRevision', async () => {
    const all = await fullHistory();
    const seen: HistoryEventAnswer[] = [];
    let next = 0;
    for (let pages = 0; pages <= all.length; pages += 1) {
      const response = await auditor.get(`/organizations/${organizationId}/history?fromRevision=${next}&limit=4`);
      expect(response.body.events.length).toBeLessThanOrEqual(4);
      seen.push(...(response.body.events as HistoryEventAnswer[]));
      next = response.body.nextFromRevision as number;
      if (!response.body.hasMore) break;
    }

    expect(seen).toEqual(all);
    expect(new Set(seen.map((event) => event.id)).size).toBe(eventCount);
  });

  it('an unknown organization is 404 NOT_FOUND', async () => {
    expectProblem(await auditor.get('/organizations/nobody-here/history'), 404, 'NOT_FOUND');
  });

  it.each([
    'fromRevision=-1',
    'fromRevision=one',
    'limit=0',
    'limit=1001',
    'limit=2.5',
    'from=3',
    'fromRevision=1&fromRevision=2',
  ])('?%s is 400 VALIDATION_FAILED', async (query) => {
    expectProblem(await auditor.get(`/organizations/${organizationId}/history?${query}`), 400, 'VALIDATION_FAILED');
  });
});

describe('GET /organizations/:id/state', () => {
  it("?asOfRevision=N is the fold of the first N+1 events, at every revision, with that event's place and time", async () => {
    const events = await fullHistory();
    for (const event of events) {
      const response = await auditor.get(`/organizations/${organizationId}/state?asOfRevision=${event.revision}`);

      expect(response.status).toBe(200);
      const { revision, position, recordedAt } = event;
      expect(response.body).toEqual({ ...foldOfFirst(events, revision + 1), revision, position, recordedAt });
    }
  });

  it('?asOf=<instant> picks the last event recorded at or before it', async () => {
    for (let revision = 0; revision < eventCount; revision += 1) {
      const exactly = await auditor.get(
        `/organizations/${organizationId}/state?asOf=${recordedAtOf(revision).toISOString()}`,
      );
      const between = new Date(recordedAtOf(revision).getTime() + SCRIPT_STEP_MS / 2).toISOString();
      const later = await auditor.get(`/organizations/${organizationId}/state?asOf=${encodeURIComponent(between)}`);

      expect(exactly.body.revision).toBe(revision);
      expect(later.body.revision).toBe(revision);
    }
  });

  it('reads an instant with an offset as the same moment', async () => {
    const response = await auditor.get(
      `/organizations/${organizationId}/state?asOf=${encodeURIComponent('2021-02-03T06:08:30+02:00')}`,
    );

    expect(response.body.revision).toBe(3);
  });

  it('before the first event: 404', async () => {
    const before = new Date(recordedAtOf(0).getTime() - 1).toISOString();

    expectProblem(await auditor.get(`/organizations/${organizationId}/state?asOf=${before}`), 404, 'NOT_FOUND');
  });

  it("a future instant is refused (400, naming asOf), here and in the explorer: it would date today's state in the future", async () => {
    const soon = new Date(Date.now() + 60_000).toISOString();
    for (const route of ['state', 'history/changes']) {
      const future = await auditor.get(`/organizations/${organizationId}/${route}?asOf=${encodeURIComponent(soon)}`);

      expectProblem(future, 400, 'VALIDATION_FAILED');
      expect(future.body.errors).toEqual([{ parameter: 'asOf', detail: 'must not be in the future' }]);
    }
    const justNow = await auditor.get(
      `/organizations/${organizationId}/state?asOf=${encodeURIComponent(new Date(Date.now() - 1_000).toISOString())}`,
    );
    expect(justNow.status).toBe(200);
  });

  it("no point at all is today's state: the same as the read model answers", async () => {
    const head = await store.headPosition();
    const today = await reader.get(`/organizations/${organizationId}?minPosition=${head}`);
    const latest = await auditor.get(`/organizations/${organizationId}/state`);

    expect(today.status).toBe(200);
    // The read answers more than the fold (for the console): the plan's site defaults and who never signed in.
    // siteDefaults, traffic and invited come from beside the organization's stream (the catalogue, usage reports,
    // sign-ins); memberCount counts the members both hold, and owners names those of them who are owners.
    type Member = { userId: string; email: string; role: string; invited: boolean };
    type Answer = { siteDefaults: unknown; traffic: unknown; memberCount: number; owners: unknown; members: Member[] };
    const {
      siteDefaults: _siteDefaults,
      traffic: _traffic,
      memberCount,
      owners,
      members,
      ...view
    } = today.body as Answer;
    expect(memberCount).toBe(members.length);
    expect(owners).toEqual(
      members.filter((member) => member.role === 'owner').map(({ userId, email }) => ({ userId, email })),
    );
    const folded = { ...view, members: members.map(({ invited: _invited, ...member }) => member) };
    expect(latest.body).toEqual({ ...folded, recordedAt: recordedAtOf(eventCount - 1).toISOString() });
  });

  it('a revision not recorded yet is 404 and names the latest revision', async () => {
    const response = await auditor.get(`/organizations/${organizationId}/state?asOfRevision=${eventCount}`);

    expectProblem(response, 404, 'NOT_FOUND');
    expect(response.body.latestRevision).toBe(eventCount - 1);
  });

  it('an unknown organization is 404', async () => {
    expectProblem(await auditor.get('/organizations/nobody-here/state?asOfRevision=0'), 404, 'NOT_FOUND');
  });

  it.each([
    'asOfRevision=-1',
    'asOfRevision=abc',
    'asOfRevision=1.5',
    'asOfRevision=',
    'asOf=yesterday',
    'asOf=2021-02-03',
    'asOf=2021-02-03T04:05:00',
    'asOf=2031-13-03T04:05:00Z',
    'asOfRevision=1&asOf=2021-02-03T04:05:00Z',
    'revision=1',
  ])('?%s is 400 VALIDATION_FAILED', async (query) => {
    expectProblem(await auditor.get(`/organizations/${organizationId}/state?${query}`), 400, 'VALIDATION_FAILED');
  });

  it('both points at once: the refusal names the query parameters', async () => {
    const response = await auditor.get(
      `/organizations/${organizationId}/state?asOfRevision=1&asOf=2021-02-03T04:05:00Z`,
    );

    expect(response.body.errors).toEqual([
      { parameter: 'asOf', detail: 'give one point: the query parameter asOfRevision or asOf, not both' },
    ]);
  });
});

describe('GET /audit/correlations/:correlationId', () => {
  it('every event of one request, across organizations, in global order', async () => {
    const headers = { 'X-Correlation-Id': 'audit-e2e-one-request' };
    const first = await writer.post('/organizations', { name: 'First', id: 'correlated-one' }, { headers });
    const second = await writer.post('/organizations', { name: 'Second', id: 'correlated-two' }, { headers });

    const correlationId = first.headers.get('x-correlation-id') ?? '';
    expect(second.headers.get('x-correlation-id')).toBe(correlationId);
    const response = await auditor.get(`/audit/correlations/${correlationId}?minPosition=${second.body.position}`);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ correlationId, hasMore: false });
    expect(
      response.body.events.map((event: HistoryEventAnswer) => [event.streamId, event.type, event.position]),
    ).toEqual([
      ['organization-correlated-one', 'OrganizationCreated', first.body.position],
      ['organization-correlated-two', 'OrganizationCreated', second.body.position],
    ]);
  });

  it('every event of one billing event: its ledger and the organization event it caused', async () => {
    const event = {
      id: 'evt_audit_e2e',
      type: 'plan.purchased',
      organizationId,
      productId: 'prod_ess',
      occurredAt: '2031-03-01T00:00:00Z',
    };
    const body = JSON.stringify(event);
    const delivered = await anonymous.request('POST', '/billing/events', {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'billing-signature': signBillingPayload(secret, Math.floor(Date.now() / 1000), Buffer.from(body)),
      },
    });
    expect(delivered.status).toBe(200);

    const response = await auditor.get(`/audit/correlations/evt_audit_e2e?minPosition=${await store.headPosition()}`);

    expect(
      response.body.events.map((recorded: HistoryEventAnswer) => [
        recorded.streamId,
        recorded.type,
        recorded.metadata.actor,
      ]),
    ).toEqual([
      ['billing-evt_audit_e2e', 'BillingEventReceived', 'billing'],
      [`organization-${organizationId}`, 'PlanAssigned', 'billing'],
      ['billing-evt_audit_e2e', 'BillingEventApplied', 'billing'],
    ]);
  });

  it('finds events recorded before the server started (the index is built from the store)', async () => {
    const response = await auditor.get(
      `/audit/correlations/script-${organizationId}-3?minPosition=${await store.headPosition()}`,
    );

    expect(response.body.events.map((event: HistoryEventAnswer) => [event.type, event.revision])).toEqual([
      ['MemberAdded', 3],
    ]);
  });

  it('an id nothing carries: 200 with no events', async () => {
    const response = await auditor.get('/audit/correlations/nothing-carries-this');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ correlationId: 'nothing-carries-this', events: [], hasMore: false });
  });

  it('a malformed id is 400', async () => {
    expectProblem(await auditor.get('/audit/correlations/%20spaces%20'), 400, 'VALIDATION_FAILED');
  });
});

describe('who may audit', () => {
  const routes = [
    `/organizations/${organizationId}/history`,
    `/organizations/${organizationId}/state`,
    '/audit/correlations/script-audited-0',
  ];

  it.each(routes)('%s without credentials is 401 UNAUTHENTICATED', async (route) => {
    expectProblem(await anonymous.get(route), 401, 'UNAUTHENTICATED');
  });

  it.each(routes)('%s with an API key without audit:read is 403 FORBIDDEN', async (route) => {
    expectProblem(await writer.get(route), 403, 'FORBIDDEN');
  });
});
