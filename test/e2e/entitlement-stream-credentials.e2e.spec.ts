// A change stream is held on a credential, and the credential bounds it: at most ENTITLEMENT_STREAMS_PER_PRINCIPAL
// per key or user and ENTITLEMENT_STREAMS_PER_ORGANIZATION per organization on a node (one caller cannot take every
// stream of the node), and the stream ends within 5 s of its key's revocation, its session's sign-out or its
// member's removal, on whichever node that happened (attack: a revoked key, or a signed-out browser, kept listening).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { newCommandContext } from '#application';
import { AddMemberCommand, ApiKeys, IDENTITY } from '#api';
import type { Identity } from '#identity';
import { READ_MODELS, type ReadModels } from '#read-models';
import { Browser } from '../support/browser.js';
import { openEventStream, type EventStreamReader } from '../support/event-stream.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let dataDir: string;
let nodeA: RunningApp;
let nodeB: RunningApp;
let admin: HttpClient;
const open: EventStreamReader[] = [];

const password = 'correct horse battery staple';

async function key(scopes: string[], organizationId?: string): Promise<{ keyId: string; key: string }> {
  const created = await nodeA.app
    .get(ApiKeys)
    .create(
      { name: `k-${randomUUID().slice(0, 6)}`, scopes, ...(organizationId === undefined ? {} : { organizationId }) },
      newCommandContext('cli'),
    );
  return { keyId: created.keyId, key: created.key };
}

async function stream(node: RunningApp, headers: Record<string, string>): Promise<EventStreamReader> {
  const opened = await openEventStream(`${node.baseUrl}/entitlements/changes`, headers);
  open.push(opened);
  return opened;
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });

/** Resolves true when the stream ends within `ms`, false otherwise. */
const endsWithin = (reader: EventStreamReader, ms: number) =>
  Promise.race([
    reader.ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
  ]);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-stream-credentials-'));
  const caps = { ENTITLEMENT_STREAMS_PER_PRINCIPAL: '2', ENTITLEMENT_STREAMS_PER_ORGANIZATION: '3' };
  nodeA = await startApp({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...caps });
  nodeB = await startApp({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', PROJECTIONS: 'off', ...caps });
  admin = httpClient(nodeA.baseUrl, { apiKey: (await key(['organizations:read', 'organizations:write'])).key });
}, 60_000);

afterAll(async () => {
  for (const reader of open) reader.close();
  await nodeB?.close();
  await nodeA?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('caps per caller', () => {
  it('gives one key its share and no more (429), while another key still gets a stream', async () => {
    const greedy = await key(['entitlements:read']);
    const held = [await stream(nodeA, bearer(greedy.key)), await stream(nodeA, bearer(greedy.key))];
    expect(held.map((reader) => reader.status)).toEqual([200, 200]);
    const over = await fetch(`${nodeA.baseUrl}/entitlements/changes`, { headers: bearer(greedy.key) });
    expect({
      status: over.status,
      code: ((await over.json()) as { code: string }).code,
      retryAfter: over.headers.get('retry-after'),
    }).toEqual({
      status: 429,
      code: 'TOO_MANY_STREAMS',
      retryAfter: '5',
    });
    const other = await stream(nodeA, bearer((await key(['entitlements:read'])).key));
    expect(other.status).toBe(200);
    for (const reader of [...held, other]) reader.close();
  });

  it("gives one organization's keys its share and no more, while another organization's keys still get streams", async () => {
    const organizationId = await createOrganization(admin);
    const bound = await Promise.all(Array.from({ length: 4 }, () => key(['entitlements:read'], organizationId)));
    const held = await Promise.all(bound.slice(0, 3).map((each) => stream(nodeA, bearer(each.key))));
    expect(held.map((reader) => reader.status)).toEqual([200, 200, 200]);
    const over = await fetch(`${nodeA.baseUrl}/entitlements/changes`, {
      headers: bearer((bound[3] as { key: string }).key),
    });
    expect(over.status).toBe(429);
    const elsewhere = await stream(
      nodeA,
      bearer((await key(['entitlements:read'], await createOrganization(admin))).key),
    );
    expect(elsewhere.status).toBe(200);
    for (const reader of [...held, elsewhere]) reader.close();
  });
});

describe('a stream ends with its credential', () => {
  it('when its key is revoked on another node, within 5 s', async () => {
    const listener = await key(['entitlements:read']);
    const reader = await stream(nodeB, bearer(listener.key));
    expect(reader.status).toBe(200);
    await nodeA.app.get(ApiKeys).revoke(listener.keyId, newCommandContext('cli'));
    expect(await endsWithin(reader, 5_000)).toBe(true);
    expect((await fetch(`${nodeA.baseUrl}/entitlements/changes`, { headers: bearer(listener.key) })).status).toBe(401);
  });

  it('when its browser signs out on another node, or its member is removed, within 5 s', async () => {
    const identity = nodeA.app.get<Identity>(IDENTITY);
    const email = `listener-${randomUUID().slice(0, 6)}@streams.example`;
    const { userId } = await identity.registration.register({ email, password }, newCommandContext('cli'));
    const organizationId = await createOrganization(admin, { plan: { line: 'classic', plan: 'essential' } });
    const added = await nodeA.app
      .get(CommandBus)
      .execute(new AddMemberCommand(organizationId, { email, role: 'member', userId }, newCommandContext('cli')));
    await nodeA.app.get<ReadModels>(READ_MODELS).waitForPosition(added.position, 5_000);

    const signIn = async () => {
      const browser = new Browser(nodeA.baseUrl);
      await browser.open('/login');
      expect((await browser.post('/login', { username: email, password })).status).toBe(204);
      const cookie = [...browser.cookies].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; ');
      return { browser, cookie };
    };

    const first = await signIn();
    const signedOut = await stream(nodeB, { cookie: first.cookie });
    expect(signedOut.status).toBe(200);
    expect((await first.browser.post('/logout')).status).toBe(204);
    expect(await endsWithin(signedOut, 5_000)).toBe(true);

    const second = await signIn();
    const removed = await stream(nodeB, { cookie: second.cookie });
    expect(removed.status).toBe(200);
    expect((await admin.delete(`/organizations/${organizationId}/members/${userId}`)).status).toBe(200);
    expect(await endsWithin(removed, 5_000)).toBe(true);
  });

  it('but not when another key is revoked', async () => {
    const kept = await key(['entitlements:read']);
    const reader = await stream(nodeA, bearer(kept.key));
    const other = await key(['entitlements:read']);
    await nodeA.app.get(ApiKeys).revoke(other.keyId, newCommandContext('cli'));
    expect(await endsWithin(reader, 1_500)).toBe(false);
    reader.close();
  });
});
