// GET /entitlements/changes: a service learns that an organization's entitlements changed without polling,
// on whichever node it is connected to, and misses nothing when it reconnects.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../support/api-keys.js';
import { openEventStream, type EventStreamReader } from '../support/event-stream.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let dataDir: string;
let nodeA: RunningApp;
let nodeB: RunningApp;
let admin: HttpClient;
let subscriberKey: string;
const open: EventStreamReader[] = [];

async function changes(node: RunningApp, key: string, lastEventId?: string): Promise<EventStreamReader> {
  const stream = await openEventStream(`${node.baseUrl}/entitlements/changes`, {
    authorization: `Bearer ${key}`,
    ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
  });
  open.push(stream);
  return stream;
}

/**
 * The next entitlements event about `organizationId` (others' changes skipped), at `from` or later: a node that
 * reads another's read model may start a stream a little before the moment it was opened, and tell of a change
 * made just before, which is harmless (one more refetch) and not what a test of a later change is about.
 */
type ChangeData = { organizationId: string; position: number; etag: string };

async function nextAbout(
  stream: EventStreamReader,
  organizationId: string,
  from = 0,
): Promise<{ id: string; data: ChangeData }> {
  for (;;) {
    const event = await stream.next();
    if (event.event !== 'entitlements') throw new Error(`unexpected ${event.event} event`);
    const data = JSON.parse(event.data) as ChangeData;
    if (data.organizationId === organizationId && data.position >= from) return { id: event.id as string, data };
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-entitlement-changes-'));
  nodeA = await startApp({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ENTITLEMENT_STREAMS_MAX: '3' });
  // A second API node over the same store, reading the read model the first one projects.
  nodeB = await startApp({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', PROJECTIONS: 'off' });
  admin = httpClient(nodeA.baseUrl, {
    apiKey: await createApiKey(nodeA.app, ['organizations:read', 'organizations:write']),
  });
  subscriberKey = await createApiKey(nodeA.app, ['entitlements:read']);
}, 60_000);

afterAll(async () => {
  for (const stream of open) stream.close();
  await nodeB?.close();
  await nodeA?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('entitlement changes, pushed', () => {
  it('tells a subscriber on another node about a change, with the ETag the bulk evaluation answers', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const onB = await changes(nodeB, subscriberKey);
    expect(onB.status).toBe(200);
    expect(onB.headers.get('content-type')).toMatch(/^text\/event-stream/);

    const added = await admin.post(`/organizations/${organizationId}/members`, {
      email: 'ann@example.com',
      role: 'owner',
    });
    expect(added.status).toBe(201);

    const change = await nextAbout(onB, organizationId, added.body.position);
    expect(change.data.position).toBe(added.body.position);
    expect(change.id).toBe(String(added.body.position));
    const bulk = await httpClient(nodeA.baseUrl, { apiKey: subscriberKey }).post('/ofrep/v1/evaluate/flags', {
      context: { targetingKey: organizationId },
    });
    expect(bulk.headers.get('etag')).toBe(change.data.etag);
    onB.close();
  });

  it('sends what a subscriber missed when it reconnects with Last-Event-ID', async () => {
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const first = await changes(nodeA, subscriberKey);
    await admin.post(`/organizations/${organizationId}/members`, { email: 'ann@example.com', role: 'owner' });
    const seen = await nextAbout(first, organizationId);
    first.close();

    const missed = await admin.post(`/organizations/${organizationId}/members`, {
      email: 'bob@example.com',
      role: 'member',
    });
    const again = await changes(nodeA, subscriberKey, seen.id);
    expect((await nextAbout(again, organizationId)).data.position).toBe(missed.body.position);
    again.close();
  });

  it("keeps a key bound to one organization to that organization's changes", async () => {
    const mine = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const other = await createOrganization(admin, { plan: { line: 'classic', plan: 'professional' } });
    const bound = await changes(nodeA, await createApiKey(nodeA.app, ['entitlements:read'], 'bound', mine));
    await admin.post(`/organizations/${other}/members`, { email: 'eve@example.com', role: 'owner' });
    await admin.post(`/organizations/${mine}/members`, { email: 'ann@example.com', role: 'owner' });
    const event = await bound.next();
    expect(JSON.parse(event.data).organizationId).toBe(mine);
    bound.close();
  });

  it('refuses a stream over the cap with 503 and Retry-After, and a key without the scope with 403', async () => {
    const held = [
      await changes(nodeA, subscriberKey),
      await changes(nodeA, subscriberKey),
      await changes(nodeA, subscriberKey),
    ];
    const over = await fetch(`${nodeA.baseUrl}/entitlements/changes`, {
      headers: { authorization: `Bearer ${subscriberKey}` },
    });
    expect({
      status: over.status,
      retryAfter: over.headers.get('retry-after'),
      code: ((await over.json()) as { code: string }).code,
    }).toEqual({
      status: 503,
      retryAfter: '5',
      code: 'TOO_MANY_STREAMS',
    });
    for (const stream of held) stream.close();
    const unscoped = await fetch(`${nodeA.baseUrl}/entitlements/changes`, {
      headers: { authorization: `Bearer ${await createApiKey(nodeA.app, ['organizations:read'])}` },
    });
    expect(unscoped.status).toBe(403);
  });
});

describe('entitlement changes across a restart', () => {
  it('answers reset to a position from before the node started, and ends open streams when it shuts down', async () => {
    const restartedDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-entitlement-reset-'));
    const before = await startApp({ DATA_DIR: restartedDir, LOG_LEVEL: 'warn' });
    const key = await createApiKey(before.app, ['entitlements:read', 'organizations:write']);
    await createOrganization(httpClient(before.baseUrl, { apiKey: key }), {
      plan: { line: 'classic', plan: 'professional' },
    });
    await before.close();

    const after = await startApp({ DATA_DIR: restartedDir, LOG_LEVEL: 'warn' });
    try {
      const stream = await changes(after, key, '1');
      expect((await stream.next()).event).toBe('reset');
      const closing = after.close();
      await stream.ended;
      await closing;
    } finally {
      rmSync(restartedDir, { recursive: true, force: true });
    }
  });
});
