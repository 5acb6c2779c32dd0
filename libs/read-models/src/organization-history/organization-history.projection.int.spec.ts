import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { organizationStream, type OrganizationEvent } from '#domain';
import type { RecordedEvent } from '#event-store';
import { createTables, liveTableNames } from '../projection.js';
import { openReadModelDatabase } from '../read-model-database.js';
import { replay } from '../rebuild/replay.js';
import { ReadModelsFixture } from '../testing/read-models-fixture.js';
import { organizationHistoryProjection } from './organization-history.projection.js';
import { OrganizationHistoryQueries } from './organization-history.queries.js';
import { projectionUnderTest } from '../testing/projection-under-test.js';

const projection = organizationHistoryProjection();

let position = 0n;
const revisions = new Map<string, bigint>();
/** An event of `streamId` recorded `minute` minutes after 09:00, by `actor`. */
function recorded(
  streamId: string,
  event: { type: string; data: unknown },
  actor: string,
  minute: number,
): RecordedEvent {
  const revision = (revisions.get(streamId) ?? -1n) + 1n;
  revisions.set(streamId, revision);
  position += 1n;
  return {
    id: `event-${position}`,
    streamId,
    type: event.type,
    data: event.data,
    metadata: { actor, correlationId: `c-${position}`, causationId: `c-${position}` },
    recordedAt: new Date(Date.UTC(2031, 0, 1, 9, minute)).toISOString(),
    revision,
    position,
  };
}

const acme = organizationStream('acme');
const member = (n: number, email = `m${n}@acme.example`): OrganizationEvent => ({
  type: 'MemberAdded',
  data: { userId: `u${n}`, email, role: 'member', chorusUser: false },
});

/** Acme: 10 events by three actors; Globex and other streams around it. */
const log: RecordedEvent[] = [
  recorded(acme, { type: 'OrganizationCreated', data: { id: 'acme', name: 'Acme' } }, 'cli', 0),
  recorded(acme, { type: 'PlanAssigned', data: { line: 'classic', plan: 'professional' } }, 'billing', 1),
  recorded('user-u1', { type: 'UserRegistered', data: {} }, 'cli', 1),
  recorded(acme, member(1), 'api-key:k1', 2),
  recorded(
    organizationStream('globex'),
    { type: 'OrganizationCreated', data: { id: 'globex', name: 'Globex' } },
    'cli',
    2,
  ),
  recorded(acme, member(2), 'user:u1', 3),
  recorded(
    acme,
    { type: 'SiteAdded', data: { siteId: 's1', name: 'Shop', hostname: 'shop.acme.example' } },
    'user:u1',
    4,
  ),
  recorded(acme, { type: 'MemberRemoved', data: { userId: 'u2' } }, 'user:u1', 5),
  recorded(acme, member(2, 'again@acme.example'), 'api-key:k1', 6),
  recorded(
    acme,
    { type: 'SiteAdded', data: { siteId: 's1', name: 'Store', hostname: 'shop.acme.example' } },
    'user:u1',
    7,
  ),
  recorded(acme, { type: 'SiteRemoved', data: { siteId: 's1' } }, 'billing', 8),
  recorded(acme, member(3), 'user:u1', 9),
];

const subject = projectionUnderTest(projection, (db) => new OrganizationHistoryQueries(db));
const { commit } = subject;

const revisionsOf = (page: { events: { revision: bigint }[] }): number[] =>
  page.events.map((event) => Number(event.revision));
const rows = (): unknown => [
  subject.db.prepare('SELECT * FROM organization_events ORDER BY organization_id, revision').safeIntegers(true).all(),
  subject.db
    .prepare('SELECT * FROM organization_record_names ORDER BY organization_id, kind, key, revision')
    .safeIntegers(true)
    .all(),
];

describe('organization history index', () => {
  it('pages an organization newest first and oldest first, after a cursor, telling whether more follow', () => {
    commit(log);

    const first = subject.queries.page({ organizationId: 'acme', order: 'newest', limit: 4 });
    expect({ revisions: revisionsOf(first), hasMore: first.hasMore }).toEqual({
      revisions: [9, 8, 7, 6],
      hasMore: true,
    });
    const second = subject.queries.page({ organizationId: 'acme', order: 'newest', after: 6n, limit: 4 });
    expect(revisionsOf(second)).toEqual([5, 4, 3, 2]);
    const last = subject.queries.page({ organizationId: 'acme', order: 'newest', after: 2n, limit: 4 });
    expect({ revisions: revisionsOf(last), hasMore: last.hasMore }).toEqual({ revisions: [1, 0], hasMore: false });
    expect(
      revisionsOf(subject.queries.page({ organizationId: 'acme', order: 'oldest', after: 7n, limit: 10 })),
    ).toEqual([8, 9]);
    expect(revisionsOf(subject.queries.page({ organizationId: 'globex', order: 'newest', limit: 10 }))).toEqual([0]);
  });

  it('answers where each event is and what the filters see', () => {
    commit(log);

    expect(subject.queries.page({ organizationId: 'acme', order: 'oldest', limit: 1 }).events[0]).toEqual({
      revision: 0n,
      position: 1n,
      eventId: 'event-1',
      type: 'OrganizationCreated',
      actor: 'cli',
      recordedAt: '2031-01-01T09:00:00.000Z',
      correlationId: 'c-1',
    });
  });

  it('filters by type, actor and time range, alone and together', () => {
    commit(log);
    const newest = (filter: object) =>
      revisionsOf(subject.queries.page({ organizationId: 'acme', order: 'newest', limit: 100, filter }));

    expect(newest({ type: 'MemberAdded' })).toEqual([9, 6, 3, 2]);
    expect(newest({ actor: 'user:u1' })).toEqual([9, 7, 5, 4, 3]);
    expect(newest({ actor: 'billing' })).toEqual([8, 1]);
    expect(newest({ from: '2031-01-01T09:03:00.000Z', to: '2031-01-01T09:06:00.000Z' })).toEqual([6, 5, 4, 3]);
    expect(newest({ type: 'MemberAdded', actor: 'user:u1', to: '2031-01-01T09:05:00.000Z' })).toEqual([3]);
    expect(newest({ type: 'UserRegistered' })).toEqual([]);
    // Paging through a filter: after the last revision of the previous page.
    expect(
      revisionsOf(
        subject.queries.page({
          organizationId: 'acme',
          order: 'newest',
          after: 6n,
          limit: 1,
          filter: { type: 'MemberAdded' },
        }),
      ),
    ).toEqual([3]);
  });

  it('lists the actors of one organization, each once', () => {
    commit(log);

    expect(subject.queries.actors('acme')).toEqual(['api-key:k1', 'billing', 'cli', 'user:u1']);
    expect(subject.queries.actors('globex')).toEqual(['cli']);
    expect(subject.queries.actors('nobody')).toEqual([]);
  });

  it('knows the name a member or site had at a revision, and the latest one otherwise', () => {
    commit(log);

    expect(subject.queries.nameOf('acme', 'member', 'u2', 5n)).toEqual({ name: 'm2@acme.example', detail: null });
    expect(subject.queries.nameOf('acme', 'member', 'u2', 9n)).toEqual({ name: 'again@acme.example', detail: null });
    expect(subject.queries.nameOf('acme', 'site', 's1', 8n)).toEqual({ name: 'Store', detail: 'shop.acme.example' });
    expect(subject.queries.nameOf('acme', 'site', 's1', 5n)).toEqual({ name: 'Shop', detail: 'shop.acme.example' });
    expect(subject.queries.nameOf('acme', 'member', 'u3', 0n)).toEqual({ name: 'm3@acme.example', detail: null });
    expect(subject.queries.nameOf('globex', 'member', 'u1', 9n)).toBeUndefined();
    expect(subject.queries.latestRevision('acme')).toBe(9n);
    expect(subject.queries.latestRevision('nobody')).toBeUndefined();
  });

  it('is idempotent: the same events applied again, one by one or all at once, leave the same rows', () => {
    commit(log);
    const once = rows();

    for (const event of log) commit([event]);
    expect(rows()).toEqual(once);
    commit([...log, ...log]);
    expect(rows()).toEqual(once);
  });

  it('writes in chunks when asked (the rebuild) and drops what was not flushed on discard', () => {
    for (const event of log) if (projection.handles(event)) subject.writer.apply(event);
    expect(subject.writer.remembered).toBe(11);
    expect(subject.db.transaction(() => subject.writer.flush(4))()).toBe(false);
    expect(subject.writer.remembered).toBe(7);
    subject.writer.discard();

    expect(subject.writer.remembered).toBe(0);
    // A flush writes in key order: Acme's first four events, not the log's first four (Globex's among them).
    expect(revisionsOf(subject.queries.page({ organizationId: 'acme', order: 'oldest', limit: 100 }))).toEqual([
      0, 1, 2, 3,
    ]);
  });

  it('written in chunks in key order, with events applied between the chunks, holds the rows of one go in log order', () => {
    // Organizations interleaved as a log interleaves them; rows go in by organization (fewer pages touched).
    const interleaved: RecordedEvent[] = [];
    for (let step = 0; step < 6; step += 1) {
      for (const name of ['zeta', 'alpha', 'mid']) {
        const event: OrganizationEvent =
          step === 0
            ? { type: 'OrganizationCreated', data: { id: name, name } }
            : member(step, `${name}${step}@example.test`);
        interleaved.push(recorded(organizationStream(name), event, step % 2 === 0 ? 'cli' : 'user:u1', step));
      }
    }
    subject.db.transaction(() => {
      for (const event of interleaved.slice(0, 10)) subject.writer.apply(event);
      expect(subject.writer.flush(4)).toBe(false);
      for (const event of interleaved.slice(10)) subject.writer.apply(event);
      expect(subject.writer.flush(5)).toBe(false);
      expect(subject.writer.flush()).toBe(true);
    })();
    subject.writer.forget();
    const chunked = rows();

    subject.db.exec('DELETE FROM organization_events; DELETE FROM organization_record_names');
    // One row at a time, in log order: what the live projector writes.
    for (const event of interleaved) commit([event]);
    expect(chunked).toEqual(rows());
    expect((chunked as unknown[][])[0]).toHaveLength(18);
    expect((chunked as unknown[][])[1]).toHaveLength(15);
  });
});

describe('organization history index on the runner and the rebuild', () => {
  let fixture: ReadModelsFixture;
  beforeEach(async () => {
    fixture = await ReadModelsFixture.create();
  });
  afterEach(async () => {
    await fixture.dispose();
  });

  it('the live projector and a replay from the first event build the same index', async () => {
    await fixture.execute('initech', { type: 'CreateOrganization', data: { id: 'initech', name: 'Initech' } });
    await fixture.execute('initech', { type: 'AssignPlan', data: { line: 'classic', plan: 'essential' } });
    await fixture.execute('initech', {
      type: 'AddMember',
      data: { userId: 'u1', email: 'ann@initech.example', role: 'owner' },
    });
    const readModels = fixture.readModels();
    expect(await readModels.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    const live = readModels.history.page({ organizationId: 'initech', order: 'oldest', limit: 10 });

    const rebuilt = openReadModelDatabase(':memory:');
    createTables(rebuilt, projection);
    await replay({ db: rebuilt, store: fixture.store, targets: [{ projection, tables: liveTableNames(projection) }] });
    const replayed = new OrganizationHistoryQueries(rebuilt);

    expect(live.events.map((event) => event.type)).toEqual(['OrganizationCreated', 'PlanAssigned', 'MemberAdded']);
    expect(replayed.page({ organizationId: 'initech', order: 'oldest', limit: 10 })).toEqual(live);
    expect(replayed.nameOf('initech', 'member', 'u1', 2n)).toEqual(
      readModels.history.nameOf('initech', 'member', 'u1', 2n),
    );
    rebuilt.close();
  });
});
