import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { EventMetadata, RecordedEvent } from '#event-store';
import { createTables, liveTableNames } from '../projection.js';
import { openReadModelDatabase } from '../read-model-database.js';
import { replay } from '../rebuild/replay.js';
import { ReadModelsFixture } from '../testing/read-models-fixture.js';
import { correlationProjection } from './correlation.projection.js';
import { CorrelationQueries } from './correlation.queries.js';
import { projectionUnderTest } from '../testing/projection-under-test.js';

const projection = correlationProjection();

let position = 0n;
const revisions = new Map<string, bigint>();
function recorded(streamId: string, type: string, metadata: Partial<EventMetadata>): RecordedEvent {
  const revision = (revisions.get(streamId) ?? -1n) + 1n;
  revisions.set(streamId, revision);
  position += 1n;
  return {
    id: `event-${position}`,
    streamId,
    type,
    data: {},
    metadata: { actor: 'system', causationId: 'cause', ...metadata } as EventMetadata,
    recordedAt: new Date(0).toISOString(),
    revision,
    position,
  };
}

/** One request touching two organizations, one billing event, and events the index must leave out. */
const log: RecordedEvent[] = [
  recorded('organization-acme', 'OrganizationCreated', { correlationId: 'request-1' }),
  recorded('user-ada', 'UserCreated', { correlationId: 'request-1' }),
  recorded('organization-globex', 'OrganizationCreated', { correlationId: 'request-1' }),
  recorded('billing-evt_1', 'BillingEventReceived', { correlationId: 'evt_1' }),
  recorded('organization-acme', 'PlanAssigned', { correlationId: 'evt_1' }),
  recorded('organization-acme', 'SiteAdded', { correlationId: '' }),
  recorded('organization-acme', 'SiteRemoved', {}),
  recorded('billing-evt_1', 'BillingEventApplied', { correlationId: 'evt_1' }),
  recorded('session-1', 'SessionStarted', { correlationId: 'evt_1' }),
];

const subject = projectionUnderTest(projection, (db) => new CorrelationQueries(db));
const { commit } = subject;

const rows = (): unknown =>
  subject.db.prepare('SELECT * FROM event_correlations ORDER BY correlation_id, position').safeIntegers(true).all();
const where = (correlationId: string): string[] =>
  subject.queries.eventsOf(correlationId, 100).map((location) => `${location.streamId}@${location.revision}`);

describe('correlation projection', () => {
  it('indexes organization and billing events by correlation id, in global order, across organizations', () => {
    commit(log);

    expect(where('request-1')).toEqual(['organization-acme@0', 'organization-globex@0']);
    expect(where('evt_1')).toEqual(['billing-evt_1@0', 'organization-acme@1', 'billing-evt_1@1']);
    expect(subject.queries.eventsOf('evt_1', 100)[1]).toEqual({
      position: 5n,
      streamId: 'organization-acme',
      revision: 1n,
      eventId: 'event-5',
    });
  });

  it('leaves out identity streams and events without a correlation id', () => {
    commit(log);

    expect(log.filter((event) => projection.handles(event)).map((event) => event.position)).toEqual([
      1n,
      3n,
      4n,
      5n,
      8n,
    ]);
    expect((rows() as unknown[]).length).toBe(5);
  });

  it('is idempotent: the same events applied again, one by one or all at once, leave the same rows', () => {
    commit(log);
    const once = rows();

    for (const event of log) commit([event]);
    expect(rows()).toEqual(once);
    commit([...log, ...log]);
    expect(rows()).toEqual(once);
  });

  it("answers one organization's events and the billing ledger's, never another organization's", () => {
    commit(log);
    const within = (correlationId: string, organization: string) =>
      subject.queries
        .eventsIn(correlationId, `organization-${organization}`, 'billing-', 100)
        .map((location) => `${location.streamId}@${location.revision}`);

    expect(within('request-1', 'acme')).toEqual(['organization-acme@0']);
    expect(within('request-1', 'globex')).toEqual(['organization-globex@0']);
    expect(within('evt_1', 'acme')).toEqual(['billing-evt_1@0', 'organization-acme@1', 'billing-evt_1@1']);
    expect(within('evt_1', 'globex')).toEqual(['billing-evt_1@0', 'billing-evt_1@1']);
    // A stream whose name only starts like the organization's is another organization.
    expect(within('request-1', 'acm')).toEqual([]);
  });

  it('limits how many locations a query answers, oldest first', () => {
    commit(log);

    expect(subject.queries.eventsOf('evt_1', 2).map((location) => location.position)).toEqual([4n, 5n]);
    expect(subject.queries.eventsOf('nobody', 10)).toEqual([]);
  });

  it('writes in chunks when asked (the rebuild) and drops what was not flushed on discard', () => {
    for (const event of log) if (projection.handles(event)) subject.writer.apply(event);
    expect(subject.writer.remembered).toBe(5);
    expect(subject.db.transaction(() => subject.writer.flush(2))()).toBe(false);
    expect(subject.writer.remembered).toBe(3);
    subject.writer.discard();

    expect(subject.writer.remembered).toBe(0);
    expect((rows() as unknown[]).length).toBe(2);
  });
});

describe('correlation projection on the runner and the rebuild', () => {
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
    const readModels = fixture.readModels();
    expect(await readModels.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    const stored = await fixture.store.readAll();
    const indexed = stored.map((event) => readModels.correlations.eventsOf(event.metadata.correlationId, 10));

    const rebuilt = openReadModelDatabase(':memory:');
    createTables(rebuilt, projection);
    await replay({ db: rebuilt, store: fixture.store, targets: [{ projection, tables: liveTableNames(projection) }] });
    const replayed = new CorrelationQueries(rebuilt);

    expect(indexed.map((locations) => locations.map((location) => location.eventId))).toEqual(
      stored.map((event) => [event.id]),
    );
    expect(stored.map((event) => replayed.eventsOf(event.metadata.correlationId, 10))).toEqual(indexed);
    rebuilt.close();
  });
});
