import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { foldOrganization, organizationStream, organizationView, type OrganizationEvent } from '#domain';
import type { EventToAppend } from '#event-store';
import { organizationProjection } from '../organization/organization.projection.js';
import { openReadModelDatabase, type ReadModelDatabase } from '../read-model-database.js';
import { organizationSetUp } from '../testing/organization-commands.js';
import { catalogue, ReadModelsFixture } from '../testing/read-models-fixture.js';
import type { CommitPacing } from '../wal-checkpointer.js';
import Database from 'better-sqlite3';
import { Checkpoints } from '../checkpoints.js';
import { correlationProjection } from '../correlation/correlation.projection.js';
import { organizationHistoryProjection } from '../organization-history/organization-history.projection.js';
import { readModelsFile } from '../read-model-database.js';
import { signInsProjection } from '../sign-ins/sign-ins.projection.js';
import { LiveCommits, ProjectionRunner } from './projection-runner.js';
import { UNKNOWN_EVENT_TYPE } from '#domain';

let fixture: ReadModelsFixture;
/** Runners and connections a test made itself (ReadModels owns the others). */
let own: { runners: ProjectionRunner[]; databases: ReadModelDatabase[] };

beforeEach(async () => {
  fixture = await ReadModelsFixture.create();
  own = { runners: [], databases: [] };
});

afterEach(async () => {
  for (const runner of own.runners) await runner.stop();
  for (const db of own.databases) db.close();
  await fixture.dispose();
});

/**
 * An organization runner on a connection of its own to the fixture's read-model file (opened by ReadModels first, as in
 * production).
 */
function organizationRunner(pacing?: CommitPacing): ProjectionRunner {
  fixture.readModels('off');
  const db = openReadModelDatabase(fixture.dataDir);
  const runner = new ProjectionRunner(
    db,
    fixture.store,
    organizationProjection(),
    pacing === undefined ? {} : { pacing },
  );
  own.databases.push(db);
  own.runners.push(runner);
  return runner;
}

function openOwnDatabase(): ReadModelDatabase {
  const db = openReadModelDatabase(fixture.dataDir);
  own.databases.push(db);
  return db;
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const created = (id: string): EventToAppend => ({
  id: randomUUID(),
  type: 'OrganizationCreated',
  data: { id, name: id.toUpperCase() },
  metadata: { actor: 'system', correlationId: 'c', causationId: 'c' },
});

async function expectedView(organizationId: string) {
  const read = await fixture.store.readStream(organizationStream(organizationId));
  if (!read.found) throw new Error(`no stream for ${organizationId}`);
  const state = foldOrganization(
    read.events.map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent),
  );
  if (!state.exists) throw new Error(`${organizationId} was not created`);
  return organizationView(state, catalogue);
}

function appendPoison(organizationId: string) {
  return fixture.store.append(
    organizationStream(organizationId),
    [
      {
        id: randomUUID(),
        type: UNKNOWN_EVENT_TYPE,
        data: { name: 'Renamed' },
        metadata: { actor: 'system', correlationId: 'c', causationId: 'c' },
      },
    ],
    'stream_exists',
  );
}

describe('projection runner', () => {
  it('catches up in batches, then applies live events, and read-your-writes waits for them', async () => {
    for (let index = 0; index < 30; index += 1)
      await fixture.execute(`org-${index}`, ...organizationSetUp(`org-${index}`, index));
    const readModels = fixture.readModels('inline', 7);
    expect(await readModels.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    expect(readModels.organizations.getOrganization('org-29')?.view).toEqual(await expectedView('org-29'));

    const written = await fixture.execute('org-3', {
      type: 'AddSite',
      data: { siteId: 'second', name: 'Second', hostname: 'second.example' },
    });
    expect(await readModels.waitForPosition(written?.position ?? -1n, 10_000)).toBe(true);
    const read = readModels.organizations.getOrganization('org-3');
    expect(read?.view).toEqual(await expectedView('org-3'));
    expect(read?.position).toBe(written?.position);
    expect(readModels.statuses()).toEqual([
      { name: 'organizations', state: 'live', checkpoint: written?.position, failure: undefined },
      { name: 'correlations', state: 'live', checkpoint: written?.position, failure: undefined },
      { name: 'sign-ins', state: 'live', checkpoint: written?.position, failure: undefined },
      { name: 'organization-history', state: 'live', checkpoint: written?.position, failure: undefined },
      { name: 'traffic', state: 'live', checkpoint: written?.position, failure: undefined },
      { name: 'member-security', state: 'live', checkpoint: written?.position, failure: undefined },
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

    await fixture.execute('acme', {
      type: 'AddMember',
      data: { userId: 'u-2', email: 'two@example.test', role: 'admin' },
    });
    await fixture.execute('beta', ...organizationSetUp('beta', 2));
    const second = fixture.readModels();
    expect(await second.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    expect(second.organizations.getOrganization('acme')?.view).toEqual(await expectedView('acme'));
    expect(second.organizations.organizationsOfUser('u-2')).toEqual([
      { organizationId: 'acme', name: 'Organization 1', role: 'admin' },
    ]);
  });

  it('moves its checkpoint past events of other streams, so positions of any write can be awaited', async () => {
    const readModels = fixture.readModels();
    const other = await fixture.store.append(
      'user-1',
      [
        {
          id: randomUUID(),
          type: 'UserRegistered',
          data: {},
          metadata: { actor: 'system', correlationId: 'c', causationId: 'c' },
        },
      ],
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
        error: expect.objectContaining({
          position: Number(poison.position),
          eventType: UNKNOWN_EVENT_TYPE,
          streamId: 'organization-acme',
        }),
      }),
      // Other projections carry on.
      expect.objectContaining({ name: 'correlations', state: 'live', checkpoint: Number(await fixture.head()) }),
      expect.objectContaining({ name: 'sign-ins', state: 'live', checkpoint: Number(await fixture.head()) }),
      expect.objectContaining({
        name: 'organization-history',
        state: 'live',
        checkpoint: Number(await fixture.head()),
      }),
      expect.objectContaining({ name: 'traffic', state: 'live', checkpoint: Number(await fixture.head()) }),
      expect.objectContaining({ name: 'member-security', state: 'live', checkpoint: Number(await fixture.head()) }),
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
    expect((await reader.health()).projections[0]).toMatchObject({
      state: 'stopped',
      checkpoint: null,
      runs: 'elsewhere',
    });
    const written = await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const waiting = reader.waitForPosition(written?.position ?? -1n, 10_000);
    fixture.readModels('inline');
    expect(await waiting).toBe(true);
    expect(reader.organizations.getOrganization('acme')?.view).toEqual(await expectedView('acme'));
    expect((await reader.health()).projections[0]).toMatchObject({ state: 'live', lag: 0, runs: 'elsewhere' });
  });

  it('commits the live events delivered together (one group commit of the store) in one transaction', async () => {
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const runner = organizationRunner();
    let notifications = 0;
    runner.onProgress(() => (notifications += 1));
    runner.start();
    await until(() => runner.status().state === 'live');
    notifications = 0;

    // Issued in one turn of the event loop: one group commit, delivered as one page.
    const appended = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        fixture.store.append(organizationStream(`o-${index}`), [created(`o-${index}`)], 'no_stream'),
      ),
    );
    const last = appended.reduce((top, result) => (result.position > top ? result.position : top), 0n);
    await until(() => runner.status().checkpoint === last);
    expect(notifications).toBe(1);
    const readModels = fixture.readModels('off');
    for (let index = 0; index < 20; index += 1)
      expect(readModels.organizations.getOrganization(`o-${index}`)?.view).toEqual(await expectedView(`o-${index}`));
  });

  /**
   * The four projections' runners live on one read-model connection, sharing its live commits; `statements`
   * collects, from then on, the SQL that connection runs starting with `logged`.
   */
  async function fourRunnersSharingLiveCommits(
    logged: string,
  ): Promise<{ statements: string[]; runners: ProjectionRunner[]; db: Database.Database }> {
    fixture.readModels('off');
    const statements: string[] = [];
    const db = new Database(readModelsFile(fixture.dataDir), {
      verbose: (sql) => (String(sql).startsWith(logged) ? statements.push(String(sql)) : undefined),
    });
    db.pragma('journal_mode = WAL');
    own.databases.push(db);
    const liveCommits = new LiveCommits(db);
    const runners = [
      organizationProjection(),
      correlationProjection(),
      signInsProjection(),
      organizationHistoryProjection(),
    ].map((projection) => new ProjectionRunner(db, fixture.store, projection, { liveCommits }));
    own.runners.push(...runners);
    for (const runner of runners) runner.start();
    await until(() => runners.every((runner) => runner.status().state === 'live'));
    statements.length = 0;
    return { statements, runners, db };
  }

  it("commits the four projections' live events of one turn in ONE transaction, every checkpoint moved in it", async () => {
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const { statements: transactions, runners, db } = await fourRunnersSharingLiveCommits('BEGIN');

    // A sign-in's writes, issued together (one group commit): only the sign-ins model applies one of them.
    const metadata = { actor: 'user:u-1', correlationId: 'c-1', causationId: 'c-1' };
    const appended = await Promise.all([
      fixture.store.append(
        'user-u-1',
        [{ id: randomUUID(), type: 'SignedIn', data: { method: 'password' }, metadata }],
        'any',
      ),
      fixture.store.append(
        'session-s-1',
        [{ id: randomUUID(), type: 'SessionStarted', data: { userId: 'u-1' }, metadata }],
        'no_stream',
      ),
      fixture.store.append(
        'sign-in-attempts-a',
        [{ id: randomUUID(), type: 'SignInAttemptSettled', data: {}, metadata }],
        'any',
      ),
    ]);
    const last = appended.reduce((top, result) => (result.position > top ? result.position : top), 0n);
    await until(() => runners.every((runner) => runner.status().checkpoint === last));

    expect(transactions).toEqual(['BEGIN IMMEDIATE']);
    // Committed, not only in memory: another process's read-your-writes reads these.
    const checkpoints = new Checkpoints(db);
    expect(runners.map((runner) => checkpoints.find(runner.name)?.position)).toEqual([last, last, last, last]);
  });

  it('gives a savepoint in a shared live commit only to the projections that write there', async () => {
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const { statements: savepoints, runners, db } = await fourRunnersSharingLiveCommits('SAVEPOINT');

    // A sign-in's writes, issued together: only the sign-ins model applies one of them; the other three count past.
    const metadata = { actor: 'user:u-1', correlationId: 'c-1', causationId: 'c-1' };
    const appended = await Promise.all([
      fixture.store.append(
        'user-u-1',
        [{ id: randomUUID(), type: 'SignedIn', data: { method: 'password' }, metadata }],
        'any',
      ),
      fixture.store.append(
        'session-s-1',
        [{ id: randomUUID(), type: 'SessionStarted', data: { userId: 'u-1' }, metadata }],
        'no_stream',
      ),
    ]);
    const last = appended.reduce((top, result) => (result.position > top ? result.position : top), 0n);
    await until(() => runners.every((runner) => runner.status().checkpoint === last));

    expect(savepoints).toHaveLength(1);
    const checkpoints = new Checkpoints(db);
    expect(runners.map((runner) => checkpoints.find(runner.name)?.position)).toEqual([last, last, last, last]);
  });

  it('keeps the other projections of a shared live commit when one of them meets a poison event there', async () => {
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const readModels = fixture.readModels('inline');
    expect(await readModels.waitForPosition(await fixture.head(), 10_000)).toBe(true);

    // In one group commit: the poison event and another organization's creation.
    const [poison] = await Promise.all([
      appendPoison('acme'),
      fixture.store.append(organizationStream('beta'), [created('beta')], 'no_stream'),
    ]);
    const head = await fixture.head();
    await until(() => readModels.statuses().every((status) => status.state === 'failed' || status.checkpoint === head));

    expect(readModels.statuses().map((status) => [status.name, status.state, status.checkpoint])).toEqual([
      ['organizations', 'failed', poison.position - 1n],
      ['correlations', 'live', head],
      ['sign-ins', 'live', head],
      ['organization-history', 'live', head],
      ['traffic', 'live', head],
      ['member-security', 'live', head],
    ]);
    // What came before the poison event in the same batch is committed (the batch replayed one event at a time).
    const stored = new Checkpoints(openOwnDatabase());
    expect(stored.find('organizations')?.position).toBe(poison.position - 1n);
    expect(stored.find('correlations')?.position).toBe(head);
  });

  it('reads an organization again when another projector on the file applied its events meanwhile', async () => {
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    let release: (() => void) | undefined;
    let held: Promise<void> | undefined;
    const holdable: CommitPacing = {
      beforeCommit: () => held,
      beforeLiveCommit: () => held,
      afterCommit: () => undefined,
    };
    const first = organizationRunner(holdable);
    const second = organizationRunner();
    first.start();
    second.start();
    await until(() => first.status().state === 'live' && second.status().state === 'live');

    // The first runner remembers acme; the second applies the next event while the first is held.
    held = new Promise((resolve) => (release = resolve));
    const siteAdded = await fixture.execute('acme', {
      type: 'AddSite',
      data: { siteId: 'second', name: 'Second', hostname: 'second.example' },
    });
    await until(() => second.status().checkpoint === siteAdded?.position);
    held = undefined;
    release?.();
    await until(() => first.status().checkpoint === siteAdded?.position);

    // The next event follows the one the second runner applied: the first must not fold it onto what it remembered.
    const memberAdded = await fixture.execute('acme', {
      type: 'AddMember',
      data: { userId: 'u-2', email: 'two@example.test', role: 'admin' },
    });
    await until(
      () => first.status().checkpoint === memberAdded?.position && second.status().checkpoint === memberAdded?.position,
    );
    expect([first.status().state, second.status().state]).toEqual(['live', 'live']);
    expect(fixture.readModels('off').organizations.getOrganization('acme')?.view).toEqual(await expectedView('acme'));
  });

  it('reads the model again when it starts after another projector wrote to the file', async () => {
    await fixture.execute('acme', ...organizationSetUp('acme', 1));
    const first = organizationRunner();
    first.start();
    await until(() => first.status().state === 'live');
    await first.stop();

    const second = organizationRunner();
    second.start();
    const siteAdded = await fixture.execute('acme', {
      type: 'AddSite',
      data: { siteId: 'second', name: 'Second', hostname: 'second.example' },
    });
    await until(() => second.status().checkpoint === siteAdded?.position);
    await second.stop();

    first.start();
    const memberAdded = await fixture.execute('acme', {
      type: 'AddMember',
      data: { userId: 'u-2', email: 'two@example.test', role: 'admin' },
    });
    await until(() => first.status().checkpoint === memberAdded?.position || first.status().state === 'failed');
    expect(first.status()).toMatchObject({ state: 'live', failure: undefined });
    expect(fixture.readModels('off').organizations.getOrganization('acme')?.view).toEqual(await expectedView('acme'));
  });
});
