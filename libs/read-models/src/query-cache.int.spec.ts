// GET /organizations/:id's answers are kept until the read-model database changes (query-cache.ts):
// served again while nothing was committed, never after a commit, whoever made it.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ReadModels } from './read-models.js';
import { organizationSetUp } from './testing/organization-commands.js';
import { ReadModelsFixture } from './testing/read-models-fixture.js';

let fixture: ReadModelsFixture;

beforeEach(async () => {
  fixture = await ReadModelsFixture.create();
});

afterEach(async () => {
  await fixture.dispose();
});

async function caughtUp(projector: ReadModels): Promise<void> {
  expect(await projector.waitForPosition(await fixture.head(), 10_000)).toBe(true);
}

const addMember = (index: number) =>
  fixture.execute('acme', {
    type: 'AddMember',
    data: { userId: `user-${index}`, email: `user${index}@example.test`, role: 'member' },
  });

describe('the read-model query cache', () => {
  it('serves the same frozen answer until a commit, then reads again: this process projecting', async () => {
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const reads = fixture.readModels();
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
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const projector = fixture.readModels();
    await caughtUp(projector);
    // A reader without a projector of its own (PROJECTIONS=off): it learns of commits only from the file.
    const reader = fixture.readModels('off');
    expect(reader.organizations.getOrganization('acme')?.view.members).toHaveLength(1);
    expect(reader.signIns.signedInOnce(['owner-1', 'user-1']).size).toBe(0);

    await addMember(1);
    await caughtUp(projector);
    expect(reader.organizations.getOrganization('acme')?.view.members.map((member) => member.userId)).toEqual([
      'owner-1',
      'user-1',
    ]);
    expect(reader.organizations.getNotificationRecipients('acme')?.position).toBe(await fixture.head());

    const signedIn = {
      id: randomUUID(),
      type: 'SignedIn',
      data: { userId: 'user-1' },
      metadata: { actor: 'user:user-1', correlationId: 'c', causationId: 'c' },
    };
    await fixture.store.append('user-user-1', [signedIn], 'any');
    await caughtUp(projector);
    expect([...reader.signIns.signedInOnce(['owner-1', 'user-1'])]).toEqual(['user-1']);
  });

  it('answers "no such organization" again only until the organization is projected', async () => {
    const reads = fixture.readModels();
    expect(reads.organizations.getOrganization('acme')).toBeUndefined();
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    await caughtUp(reads);
    expect(reads.organizations.getOrganization('acme')?.view.name).toBe('Organization 1');
  });
});
