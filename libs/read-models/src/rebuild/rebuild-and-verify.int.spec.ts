import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { EventStore } from '#event-store';
import { readModelsFile } from '../read-model-database.js';
import { ReadModels } from '../read-models.js';
import { organizationSetUp } from '../testing/organization-commands.js';
import { catalogue, ReadModelsFixture } from '../testing/read-models-fixture.js';
import type { ReplayProgress } from './replay.js';
import { UNKNOWN_EVENT_TYPE } from '#domain';

let fixture: ReadModelsFixture;

beforeEach(async () => {
  fixture = await ReadModelsFixture.create();
  for (let index = 0; index < 20; index += 1)
    await fixture.execute(`org-${index}`, ...organizationSetUp(`org-${index}`, index));
});

afterEach(() => fixture.dispose());

/** Every row of the live model. */
function storedModel(): unknown {
  const db = new Database(readModelsFile(fixture.dataDir), { readonly: true });
  try {
    return {
      organizations: db.prepare('SELECT * FROM organizations ORDER BY id').all(),
      memberships: db.prepare('SELECT * FROM memberships ORDER BY organization_id, user_id').all(),
      usage: db.prepare('SELECT * FROM organization_usage ORDER BY organization_id, revision').all(),
      correlations: db.prepare('SELECT * FROM event_correlations ORDER BY correlation_id, position').all(),
    };
  } finally {
    db.close();
  }
}

function tamper(sql: string): void {
  const db = new Database(readModelsFile(fixture.dataDir));
  db.exec(sql);
  db.close();
}

describe('rebuild and verify', () => {
  it('rebuilds a model identical to the one the projector built, and reports progress', async () => {
    const projector = fixture.readModels();
    expect(await projector.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    await projector.close();
    const projected = storedModel();

    const cli = fixture.readModels('off');
    const progress: ReplayProgress[] = [];
    const rebuilt = await cli.rebuild({ onProgress: (step) => progress.push(step) });
    expect(rebuilt).toMatchObject({
      projections: cli.projections.map((projection) => projection.name),
      position: await fixture.head(),
      events: 80,
    });
    expect(progress.at(-1)).toMatchObject({ events: 80, position: await fixture.head(), target: await fixture.head() });
    expect(storedModel()).toEqual(projected);
    expect((await cli.verify()).map((verification) => verification.drift)).toEqual(cli.projections.map(() => []));
  });

  it('counts the rows of each table it compared, in the stored model and in the rebuild, saying what they are', async () => {
    const cli = fixture.readModels('off');
    await cli.rebuild();
    const { organizations, memberships, usage, correlations } = storedModel() as Record<string, unknown[]>;
    tamper(
      `INSERT INTO memberships (organization_id, user_id, role, ordinal, member) VALUES ('org-5', 'intruder', 'owner', 99, '{"userId":"intruder","role":"owner"}')`,
    );

    const verifications = await cli.verify();

    expect(verifications.map(({ projection, tables }) => ({ projection, tables }))).toEqual([
      {
        projection: 'organizations',
        tables: [
          {
            table: 'organizations',
            rowIs: 'organization',
            rowsAre: 'organizations',
            stored: organizations?.length,
            rebuilt: organizations?.length,
          },
          {
            table: 'memberships',
            rowIs: 'membership',
            rowsAre: 'memberships',
            stored: (memberships?.length ?? 0) + 1,
            rebuilt: memberships?.length,
          },
          {
            table: 'organization_usage',
            rowIs: 'usage point',
            rowsAre: 'usage points',
            stored: usage?.length,
            rebuilt: usage?.length,
          },
        ],
      },
      {
        projection: 'correlations',
        tables: [
          {
            table: 'event_correlations',
            rowIs: 'event indexed by correlation id',
            rowsAre: 'events indexed by correlation id',
            stored: correlations?.length,
            rebuilt: correlations?.length,
          },
        ],
      },
      {
        projection: 'sign-ins',
        tables: [
          {
            table: 'first_sign_ins',
            rowIs: 'user who has signed in',
            rowsAre: 'users who have signed in',
            stored: 0,
            rebuilt: 0,
          },
        ],
      },
      {
        projection: 'organization-history',
        tables: [
          {
            table: 'organization_events',
            rowIs: 'organization event indexed for the history',
            rowsAre: 'organization events indexed for the history',
            stored: 80,
            rebuilt: 80,
          },
          {
            table: 'organization_record_names',
            rowIs: 'name a member or site had',
            rowsAre: 'names members and sites had',
            stored: expect.any(Number),
            rebuilt: expect.any(Number),
          },
        ],
      },
      {
        projection: 'traffic',
        tables: [
          {
            table: 'traffic_periods',
            rowIs: 'organization and period with traffic reported',
            rowsAre: 'organizations and periods with traffic reported',
            stored: 0,
            rebuilt: 0,
          },
        ],
      },
      {
        projection: 'member-security',
        tables: [
          {
            table: 'security_memberships',
            rowIs: 'membership',
            rowsAre: 'memberships',
            stored: memberships?.length,
            rebuilt: memberships?.length,
          },
          {
            table: 'member_security_events',
            rowIs: 'member security event',
            rowsAre: 'member security events',
            stored: 0,
            rebuilt: 0,
          },
          {
            table: 'member_second_factors',
            rowIs: "person's second-factor status",
            rowsAre: "people's second-factor statuses",
            stored: 0,
            rebuilt: 0,
          },
        ],
      },
    ]);
    expect(organizations).toHaveLength(20);
    expect(correlations).toHaveLength(80);
  });

  it('finds drift row by row and names the differing fields', async () => {
    const cli = fixture.readModels('off');
    await cli.rebuild();
    tamper(`UPDATE organizations SET state = json_set(state, '$.limits.configured.users', 99) WHERE id = 'org-3';
            DELETE FROM memberships WHERE organization_id = 'org-4';
            INSERT INTO memberships (organization_id, user_id, role, ordinal, member) VALUES ('org-5', 'intruder', 'owner', 99, '{}')`);
    const [verification] = await cli.verify();
    expect(verification?.drift).toEqual([
      { table: 'organizations', key: 'org-3', differences: ['state.limits.configured.users: stored 99, rebuilt null'] },
      { table: 'memberships', key: 'org-4/owner-4', differences: ['missing from the stored model'] },
      {
        table: 'memberships',
        key: 'org-5/intruder',
        differences: ['in the stored model only (a rebuild has no such row)'],
      },
    ]);
    await cli.rebuild();
    expect((await cli.verify()).map((result) => result.drift)).toEqual(cli.projections.map(() => []));
  });

  it('walks integer keys in their own order: one missing row is one difference, not every row after it', async () => {
    const cli = fixture.readModels('off');
    await cli.rebuild();
    // Compared as text, 10 would sort before 9 and every row from there on would look missing and extra.
    tamper('DELETE FROM event_correlations WHERE position = 9');
    const correlations = (await cli.verify()).find((result) => result.projection === 'correlations');
    expect(correlations?.drift).toEqual([
      { table: 'event_correlations', key: '9', differences: ['missing from the stored model'] },
    ]);
  });

  it('swaps the rebuilt model under a running projector, which carries on from the new checkpoint', async () => {
    const server = fixture.readModels('inline', 3);
    expect(await server.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    tamper(`UPDATE organizations SET name = 'stale' WHERE id = 'org-1'`);

    const cli = fixture.readModels('off');
    const rebuilding = cli.rebuild();
    // Writes during the rebuild reach the new model, through the rebuild or the projector.
    await fixture.execute('org-1', {
      type: 'AddMember',
      data: { userId: 'late', email: 'late@example.test', role: 'admin' },
    });
    await rebuilding;
    const written = await fixture.execute('org-2', {
      type: 'AddMember',
      data: { userId: 'later', email: 'later@example.test', role: 'member' },
    });
    expect(await server.waitForPosition(written?.position ?? -1n, 10_000)).toBe(true);

    expect(server.organizations.organizationsOfUser('late')).toEqual([
      { organizationId: 'org-1', name: 'Organization 1', role: 'admin' },
    ]);
    expect(server.organizations.organizationsOfUser('later')).toEqual([
      { organizationId: 'org-2', name: 'Organization 2', role: 'member' },
    ]);
    expect((await cli.verify()).map((result) => result.drift)).toEqual(cli.projections.map(() => []));
    expect(server.statuses()[0]).toMatchObject({ state: 'live', checkpoint: written?.position });
  });

  it('catches the aside model up to the served checkpoint inside the swap, never swapping in an older model', async () => {
    const server = fixture.readModels();
    const head = await fixture.head();
    expect(await server.waitForPosition(head, 10_000)).toBe(true);
    const projected = storedModel();
    // A store whose head looks older than what the server has applied: the first pass stops halfway.
    const lagging = Object.create(fixture.store, {
      headPosition: { value: () => Promise.resolve(head / 2n) },
    }) as EventStore;
    const cli = ReadModels.open({ dataDir: fixture.dataDir, store: lagging, catalogue });
    try {
      const rebuilt = await cli.rebuild();
      expect(rebuilt).toMatchObject({ position: head, events: Number(head) });
      expect(storedModel()).toEqual(projected);
    } finally {
      await cli.close();
    }
  });

  it('refuses to swap in a model built past a poison event, and leaves the served model alone', async () => {
    const cli = fixture.readModels('off');
    await cli.rebuild();
    const before = storedModel();
    await fixture.store.append(
      'organization-org-1',
      [
        {
          id: randomUUID(),
          type: UNKNOWN_EVENT_TYPE,
          data: {},
          metadata: { actor: 'system', correlationId: 'c', causationId: 'c' },
        },
      ],
      'stream_exists',
    );
    await expect(cli.rebuild()).rejects.toThrow(/unknown event type/);
    expect(storedModel()).toEqual(before);
  });
});
