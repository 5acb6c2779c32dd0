// GET /organizations/:id's answers are kept until the read-model database changes (query-cache.ts):
// served again while nothing was committed, never after a commit, whoever made it.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { openEventStore, type EventStore } from '#event-store';
import { ReadModels } from './read-models.js';
import { executeOrganizationCommand, organizationSetUp } from './testing/organization-commands.js';
import { catalogue } from './testing/read-models-fixture.js';

let dataDir: string;
let store: EventStore;
const opened: ReadModels[] = [];

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chorus-query-cache-'));
  store = await openEventStore({ dataDir });
});

afterEach(async () => {
  for (const readModels of opened.splice(0)) await readModels.close();
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function readModels(): ReadModels {
  const opening = ReadModels.open({ dataDir, store, catalogue });
  opened.push(opening);
  return opening;
}

async function caughtUp(projector: ReadModels): Promise<void> {
  expect(await projector.waitForPosition((await store.headPosition()) ?? 0n, 10_000)).toBe(true);
}

const addMember = (index: number) => executeOrganizationCommand(store, catalogue, 'acme', { type: 'AddMember', data: { userId: `user-${index}`, email: `user${index}@example.test`, role: 'member' } });

describe('the read-model query cache', () => {
  it('serves the same frozen answer until a commit, then reads again: this process projecting', async () => {
    for (const command of organizationSetUp('acme', 1)) await executeOrganizationCommand(store, catalogue, 'acme', command);
    const reads = readModels();
    reads.start();
    await caughtUp(reads);

    const first = reads.organizations.getOrganization('acme');
    expect(reads.organizations.getOrganization('acme')).toBe(first);
    expect(Object.isFrozen(first?.view.members)).toBe(true);
    expect(() => (first?.view.members as unknown[]).push('x')).toThrow(/not extensible/);

    await addMember(1);
    await caughtUp(reads);
    const after = reads.organizations.getOrganization('acme');
    expect(after?.view.members.map((member) => member.userId)).toEqual(['owner-1', 'user-1']);
    expect(after?.revision).toBe((first?.revision ?? 0n) + 1n);
  });

  it('reads again after a commit by a projector on another connection (another process sharing DATA_DIR)', async () => {
    for (const command of organizationSetUp('acme', 1)) await executeOrganizationCommand(store, catalogue, 'acme', command);
    const projector = readModels();
    projector.start();
    await caughtUp(projector);
    // A reader without a projector of its own (PROJECTIONS=off): it learns of commits only from the file.
    const reader = readModels();
    expect(reader.organizations.getOrganization('acme')?.view.members).toHaveLength(1);
    expect(reader.signIns.signedInOnce(['owner-1', 'user-1']).size).toBe(0);

    await addMember(1);
    await caughtUp(projector);
    expect(reader.organizations.getOrganization('acme')?.view.members.map((member) => member.userId)).toEqual(['owner-1', 'user-1']);
    expect(reader.organizations.getNotificationRecipients('acme')?.position).toBe(await store.headPosition());

    await store.append('user-user-1', [{ id: randomUUID(), type: 'SignedIn', data: { userId: 'user-1', sessionId: 's-1', method: 'password', at: new Date().toISOString() }, metadata: { actor: 'user:user-1', correlationId: 'c', causationId: 'c' } }], 'any');
    await caughtUp(projector);
    expect([...reader.signIns.signedInOnce(['owner-1', 'user-1'])]).toEqual(['user-1']);
  });

  it('answers "no such organization" again only until the organization is projected', async () => {
    const reads = readModels();
    reads.start();
    expect(reads.organizations.getOrganization('acme')).toBeUndefined();
    for (const command of organizationSetUp('acme', 1)) await executeOrganizationCommand(store, catalogue, 'acme', command);
    await caughtUp(reads);
    expect(reads.organizations.getOrganization('acme')?.view.name).toBe('Organization 1');
  });
});
