// Time travel on a real SQLite store with an injected clock: every revision and the instants between.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  DomainError,
  foldOrganization,
  organizationStream,
  organizationView,
  type OrganizationEvent,
  type OrganizationView,
} from '#domain';
import { SqliteEventStore, type RecordedEvent } from '#event-store';
import { readOrganizationHistory } from './organization-history.js';
import { organizationStateAt, type OrganizationStateAt } from './organization-state-at.js';
import {
  recordScriptedHistory,
  recordedAtOf,
  scriptCatalogue,
  scriptedCommands,
  ScriptClock,
  SCRIPT_STEP_MS,
} from '../../../../test/support/scripted-history.js';

const catalogue = scriptCatalogue();
const organizationId = 'audited';
let dataDir: string;
let store: SqliteEventStore;
let events: RecordedEvent[];
/** "Today's state" as it was answered right after each revision was written. */
const todayAt: OrganizationStateAt[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-state-at-'));
  const clock = new ScriptClock();
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite'), now: clock.now });
  await recordScriptedHistory(store, clock, organizationId, async () => {
    todayAt.push(await organizationStateAt(store, catalogue, organizationId, { kind: 'latest' }));
  });
  const read = await store.readStream(organizationStream(organizationId));
  events = read.found ? read.events : [];
});

afterAll(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const foldOfFirst = (count: number): OrganizationView => {
  const state = foldOrganization(
    events.slice(0, count).map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent),
  );
  if (!state.exists) throw new Error('no organization');
  return organizationView(state, catalogue);
};

const notFound = async (promise: Promise<unknown>): Promise<DomainError> => {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe('NOT_FOUND');
  return error as DomainError;
};

it('the script recorded one event per command, a minute apart', () => {
  expect(events).toHaveLength(scriptedCommands(organizationId).length);
  expect(events.map((event) => event.recordedAt)).toEqual(
    events.map((_event, revision) => recordedAtOf(revision).toISOString()),
  );
  expect(new Set(events.map((event) => event.type))).toEqual(
    new Set([
      'OrganizationCreated',
      'PlanAssigned',
      'AddOnPurchased',
      'AddOnCancelled',
      'MemberAdded',
      'MemberRemoved',
      'SiteAdded',
      'SiteRemoved',
      'LimitsConfigured',
    ]),
  );
});

describe('as of a revision', () => {
  it('equals the fold of the first N+1 events, at every revision', async () => {
    for (const event of events) {
      const at = await organizationStateAt(store, catalogue, organizationId, {
        kind: 'revision',
        revision: event.revision,
      });

      const { revision, position, recordedAt } = event;
      expect(at).toEqual({
        view: foldOfFirst(Number(revision) + 1),
        revision,
        position,
        recordedAt,
        stripe: { customerId: null, subscriptionId: null },
      });
    }
  });

  it("equals what today's state answered right after that revision was written", async () => {
    for (const event of events) {
      const at = await organizationStateAt(store, catalogue, organizationId, {
        kind: 'revision',
        revision: event.revision,
      });

      expect(at).toEqual(todayAt[Number(event.revision)]);
    }
  });

  it('shows limits and features as they were then, not as they are now', async () => {
    const beforeOverride = await organizationStateAt(store, catalogue, organizationId, {
      kind: 'revision',
      revision: 7n,
    });
    const now = await organizationStateAt(store, catalogue, organizationId, { kind: 'latest' });

    expect(beforeOverride.view).toMatchObject({
      plan: 'essential',
      serviceLevel: 'standard',
      limits: { override: false, configured: { users: 3, contentSections: 2 } },
    });
    expect(beforeOverride.view.sites.map((site) => site.hostname)).toEqual([
      'www.audited.example',
      'blog.audited.example',
    ]);
    expect(now.view).toMatchObject({ plan: 'professional', serviceLevel: 'assisted', limits: { override: false } });
    expect(now.view.sites.map((site) => site.siteId)).toEqual(['site-main']);
  });

  it('a revision not recorded yet is NOT_FOUND, naming the latest one', async () => {
    const error = await notFound(
      organizationStateAt(store, catalogue, organizationId, { kind: 'revision', revision: BigInt(events.length) }),
    );

    expect(error.details).toMatchObject({ latestRevision: events.length - 1 });
  });
});

describe('as of an instant', () => {
  it('an instant exactly when an event was recorded includes that event', async () => {
    for (const event of events) {
      const at = await organizationStateAt(store, catalogue, organizationId, {
        kind: 'instant',
        at: new Date(event.recordedAt),
      });

      expect(at.revision).toBe(event.revision);
    }
  });

  it('an instant between two events picks the earlier one', async () => {
    for (const event of events) {
      const between = new Date(Date.parse(event.recordedAt) + SCRIPT_STEP_MS / 2);
      const at = await organizationStateAt(store, catalogue, organizationId, { kind: 'instant', at: between });

      expect(at).toEqual(todayAt[Number(event.revision)]);
    }
  });

  it('a millisecond before the next event still picks the earlier one', async () => {
    const justBefore = new Date(recordedAtOf(5).getTime() - 1);

    expect(
      (await organizationStateAt(store, catalogue, organizationId, { kind: 'instant', at: justBefore })).revision,
    ).toBe(4n);
  });

  it('an instant before the first event is NOT_FOUND', async () => {
    await notFound(
      organizationStateAt(store, catalogue, organizationId, {
        kind: 'instant',
        at: new Date(recordedAtOf(0).getTime() - 1),
      }),
    );
  });

  it("an instant in the future is today's state", async () => {
    const future = await organizationStateAt(store, catalogue, organizationId, {
      kind: 'instant',
      at: new Date('2999-01-01T00:00:00Z'),
    });

    expect(future).toEqual(await organizationStateAt(store, catalogue, organizationId, { kind: 'latest' }));
    expect(future.revision).toBe(BigInt(events.length - 1));
  });
});

it('an unknown organization is NOT_FOUND at any point', async () => {
  await notFound(organizationStateAt(store, catalogue, 'nobody', { kind: 'latest' }));
  await notFound(organizationStateAt(store, catalogue, 'nobody', { kind: 'revision', revision: 0n }));
});

describe('history paging', () => {
  it.each([1, 2, 4, 7, 100])('pages of %i return every event exactly once, in order', async (limit) => {
    const seen: RecordedEvent[] = [];
    let fromRevision = 0n;
    for (let pages = 0; pages <= events.length; pages += 1) {
      const page = await readOrganizationHistory(store, organizationId, { fromRevision, limit });
      expect(page.events.length).toBeLessThanOrEqual(limit);
      seen.push(...page.events);
      fromRevision = page.nextFromRevision;
      if (!page.hasMore) break;
    }

    expect(seen).toEqual(events);
  });

  it('past the end: no events, nothing more, and the next revision to poll from', async () => {
    const page = await readOrganizationHistory(store, organizationId, { fromRevision: BigInt(events.length) });

    expect(page).toEqual({ events: [], nextFromRevision: BigInt(events.length), hasMore: false });
  });

  it('an unknown organization is NOT_FOUND', async () => {
    await notFound(readOrganizationHistory(store, 'nobody'));
  });
});
