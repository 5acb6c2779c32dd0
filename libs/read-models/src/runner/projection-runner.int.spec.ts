import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { foldOrganization, organizationStream, organizationView, type OrganizationEvent } from '#domain';
import { organizationSetUp } from '../testing/organization-commands.js';
import { catalogue, ReadModelsFixture } from '../testing/read-models-fixture.js';

let fixture: ReadModelsFixture;

beforeEach(async () => {
  fixture = await ReadModelsFixture.create();
});

afterEach(() => fixture.dispose());

async function expectedView(organizationId: string) {
  const read = await fixture.store.readStream(organizationStream(organizationId));
  if (!read.found) throw new Error(`no stream for ${organizationId}`);
  const state = foldOrganization(read.events.map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent));
  if (!state.exists) throw new Error(`${organizationId} was not created`);
  return organizationView(state, catalogue);
}

function appendPoison(organizationId: string) {
  return fixture.store.append(
    organizationStream(organizationId),
    [{ id: randomUUID(), type: 'OrganizationRenamed', data: { name: 'Renamed' }, metadata: { actor: 'system', correlationId: 'c', causationId: 'c' } }],
    'stream_exists',
  );
}

describe('projection runner', () => {
  it('catches up in batches, then applies live events, and read-your-writes waits for them', async () => {
    for (let index = 0; index < 30; index += 1) await fixture.execute(`org-${index}`, ...organizationSetUp(`org-${index}`, index));
    const readModels = fixture.readModels('inline', 7);
    expect(await readModels.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    expect(readModels.organizations.getOrganization('org-29')?.view).toEqual(await expectedView('org-29'));

    const written = await fixture.execute('org-3', { type: 'AddSite', data: { siteId: 'second', name: 'Second', hostname: 'second.example' } });
    expect(await readModels.waitForPosition(written?.position ?? -1n, 10_000)).toBe(true);
    const read = readModels.organizations.getOrganization('org-3');
    expect(read?.view).toEqual(await expectedView('org-3'));
    expect(read?.position).toBe(written?.position);
    expect(readModels.statuses()).toEqual([
      { name: 'organizations', state: 'live', checkpoint: written?.position, failure: undefined },
      { name: 'correlations', state: 'live', checkpoint: written?.position, failure: undefined },
      { name: 'sign-ins', state: 'live', checkpoint: written?.position, failure: undefined },
    ]);
  });

  it('answers false when the position is not reached in time', async () => {
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const readModels = fixture.readModels();
    expect(await readModels.waitForPosition((await fixture.head()) + 1n, 50)).toBe(false);
  });

  it('resumes from its checkpoint after a restart', async () => {
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const first = fixture.readModels();
    expect(await first.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    await first.close();

    await fixture.execute('acme', { type: 'AddMember', data: { userId: 'u-2', email: 'two@example.test', role: 'admin' } });
    await fixture.execute('beta', ...organizationSetUp('beta', 2));
    const second = fixture.readModels();
    expect(await second.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    expect(second.organizations.getOrganization('acme')?.view).toEqual(await expectedView('acme'));
    expect(second.organizations.organizationsOfUser('u-2')).toEqual([{ organizationId: 'acme', name: 'Organization 1', role: 'admin' }]);
  });

  it('moves its checkpoint past events of other streams, so positions of any write can be awaited', async () => {
    const readModels = fixture.readModels();
    const other = await fixture.store.append(
      'user-1',
      [{ id: randomUUID(), type: 'UserRegistered', data: {}, metadata: { actor: 'system', correlationId: 'c', causationId: 'c' } }],
      'no_stream',
    );
    expect(await readModels.waitForPosition(other.position, 10_000)).toBe(true);
    expect((await readModels.health()).projections[0]?.lag).toBe(0);
  });

  it('stops at a poison event, loudly and without skipping it, also after a restart', async () => {
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const poison = await appendPoison('acme');
    await fixture.execute('beta', ...organizationSetUp('beta', 2));
    const readModels = fixture.readModels('inline', 100);
    expect(await readModels.waitForPosition(await fixture.head(), 10_000)).toBe(false);

    const health = await readModels.health();
    expect(health.ready).toBe(false);
    expect(health.projections).toEqual([
      expect.objectContaining({
        name: 'organizations',
        state: 'failed',
        checkpoint: Number(poison.position) - 1,
        error: expect.objectContaining({ position: Number(poison.position), eventType: 'OrganizationRenamed', streamId: 'organization-acme' }),
      }),
      // Other projections carry on.
      expect.objectContaining({ name: 'correlations', state: 'live', checkpoint: Number(await fixture.head()) }),
      expect.objectContaining({ name: 'sign-ins', state: 'live', checkpoint: Number(await fixture.head()) }),
    ]);
    // Everything before the poison event is committed; nothing after it.
    expect(readModels.organizations.getOrganization('acme')?.view).toEqual(await expectedView('acme'));
    expect(readModels.organizations.getOrganization('beta')).toBeUndefined();
    await readModels.close();

    const restarted = fixture.readModels();
    expect(await restarted.waitForPosition(await fixture.head(), 10_000)).toBe(false);
    expect(restarted.statuses()[0]).toMatchObject({ state: 'failed', checkpoint: poison.position - 1n });
  });

  it('shows a projector running in another process to a process with PROJECTIONS=off', async () => {
    const reader = fixture.readModels('off');
    expect((await reader.health()).projections[0]).toMatchObject({ state: 'stopped', checkpoint: null, runs: 'elsewhere' });
    const written = await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const waiting = reader.waitForPosition(written?.position ?? -1n, 10_000);
    fixture.readModels('inline');
    expect(await waiting).toBe(true);
    expect(reader.organizations.getOrganization('acme')?.view).toEqual(await expectedView('acme'));
    expect((await reader.health()).projections[0]).toMatchObject({ state: 'live', lag: 0, runs: 'elsewhere' });
  });
});
