import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { createPlanCatalogue, foldOrganization, organizationView, type OrganizationEvent } from '#domain';
import type { RecordedEvent } from '#event-store';
import { createIndexes, createTables, liveTableNames, type ProjectionWriter } from '../projection.js';
import { openReadModelDatabase, type ReadModelDatabase } from '../read-model-database.js';
import { recordOrganizationEvents } from '../testing/recorded-events.js';
import { organizationProjection, UnprojectableEvent } from './organization.projection.js';
import { OrganizationQueries, sameOrganizationName } from './organization.queries.js';
import { UNKNOWN_EVENT_TYPE } from '#domain';

const catalogue = createPlanCatalogue();
const projection = organizationProjection();

/** One event of every type, in an order the domain would have decided. */
const history: OrganizationEvent[] = [
  { type: 'OrganizationCreated', data: { id: 'acme', name: 'Acme' } },
  { type: 'PlanAssigned', data: { line: 'classic', plan: 'professional' } },
  { type: 'PlanAssigned', data: { line: 'chorus', plan: 'teams', serviceLevel: 'assisted' } },
  { type: 'AddOnPurchased', data: { addOn: 'additionalUser', quantity: 2 } },
  { type: 'AddOnCancelled', data: { addOn: 'additionalUser', quantity: 1 } },
  { type: 'ChorusEnabled', data: { parallelUse: true } },
  { type: 'LimitsConfigured', data: { contentSections: 3, override: true } },
  { type: 'MemberAdded', data: { userId: 'u-ada', email: 'ada@acme.test', role: 'owner', chorusUser: true } },
  { type: 'MemberAdded', data: { userId: 'u-bob', email: 'bob@acme.test', role: 'member', chorusUser: false } },
  { type: 'MemberRemoved', data: { userId: 'u-bob' } },
  { type: 'SiteAdded', data: { siteId: 's-shop', name: 'Shop', hostname: 'xn--bcher-kva.example' } },
  { type: 'SiteAdded', data: { siteId: 's-blog', name: 'Blog', hostname: 'blog.acme.test' } },
  { type: 'SiteRemoved', data: { siteId: 's-blog' } },
  { type: 'AddOnPurchased', data: { addOn: 'qualityAssurance', quantity: 1 } },
  { type: 'QualityAssuranceDomainAdded', data: { domain: 'qa.acme.test' } },
  { type: 'QualityAssuranceDomainRemoved', data: { domain: 'qa.acme.test' } },
  { type: 'AddOnPurchased', data: { addOn: 'webAnalytics', quantity: 1 } },
  { type: 'WebAnalyticsDomainAdded', data: { domain: 'stats.acme.test' } },
  { type: 'WebAnalyticsDomainRemoved', data: { domain: 'stats.acme.test' } },
  { type: 'ChorusDisabled', data: {} },
  { type: 'MemberAdded', data: { userId: 'u-cat', email: 'cat@acme.test', role: 'member', chorusUser: false } },
  {
    type: 'MemberRoleChanged',
    data: { userId: 'u-cat', email: 'cat@acme.test', role: 'admin', previousRole: 'member' },
  },
];
const recorded = recordOrganizationEvents('acme', history);

let db: ReadModelDatabase;
let writer: ProjectionWriter;

beforeEach(() => {
  db = openReadModelDatabase(':memory:');
  createTables(db, projection);
  createIndexes(db, projection);
  writer = projection.writer(db, liveTableNames(projection));
});

afterEach(() => {
  db.close();
});

function commit(events: readonly RecordedEvent[]): void {
  db.transaction(() => {
    for (const event of events) writer.apply(event);
    writer.flush();
  })();
  writer.forget();
}

/** Every row of the model, for comparing before and after. */
function model(): unknown {
  return {
    organizations: db.prepare('SELECT * FROM organizations ORDER BY id').safeIntegers(true).all(),
    memberships: db.prepare('SELECT * FROM memberships ORDER BY organization_id, user_id').all(),
  };
}

describe('organization projection', () => {
  it.each(recorded.map((event, index) => [index, event.type] as const))(
    'event %i (%s) applied twice leaves the same model as applied once',
    (index) => {
      const event = recorded[index] as RecordedEvent;
      commit(recorded.slice(0, index));
      const before = model();
      commit([event]);
      const once = model();
      commit([event]);
      expect(model()).toEqual(once);
      commit([event, event]);
      expect(model()).toEqual(once);
      expect(once).not.toEqual(before);
    },
  );

  it('holds the domain’s view of the fold of the stream, with position and revision', () => {
    commit(recorded);
    const stored = new OrganizationQueries(db, catalogue).getOrganization('acme');
    const state = foldOrganization(history);
    if (!state.exists) throw new Error('the history creates the organization');
    expect(stored).toEqual({
      view: organizationView(state, catalogue),
      position: BigInt(recorded.length),
      revision: BigInt(recorded.length - 1),
    });
  });

  it('replaying the whole stream again, in one batch or one by one, changes nothing', () => {
    commit(recorded);
    const once = model();
    commit(recorded);
    for (const event of recorded) commit([event]);
    expect(model()).toEqual(once);
  });

  it('keeps memberships for sign-in and answers the notification rule on the stored state', () => {
    commit(recordOrganizationEvents('acme', history.slice(0, 9)));
    commit(
      recordOrganizationEvents(
        'zeta',
        [
          { type: 'OrganizationCreated', data: { id: 'zeta', name: 'Zeta' } },
          { type: 'MemberAdded', data: { userId: 'u-bob', email: 'bob@zeta.test', role: 'admin', chorusUser: false } },
        ],
        { fromPosition: 100n },
      ),
    );
    const queries = new OrganizationQueries(db, catalogue);
    expect(queries.organizationsOfUser('u-bob')).toEqual([
      { organizationId: 'acme', name: 'Acme', role: 'member' },
      { organizationId: 'zeta', name: 'Zeta', role: 'admin' },
    ]);
    // Chorus enabled with parallel use: only chorusUser members are notified.
    expect(queries.getNotificationRecipients('acme')?.recipients.map((member) => member.userId)).toEqual(['u-ada']);
    expect(queries.getNotificationRecipients('zeta')?.recipients).toEqual([]);
    expect(queries.getNotificationRecipients('nobody')).toBeUndefined();

    commit(recordOrganizationEvents('acme', history.slice(9, 10), { fromRevision: 9n, fromPosition: 200n }));
    expect(queries.organizationsOfUser('u-bob')).toEqual([{ organizationId: 'zeta', name: 'Zeta', role: 'admin' }]);
  });

  it('gives a member their new role, for sign-in as for the view', () => {
    commit(recorded.slice(0, -1));
    const queries = new OrganizationQueries(db, catalogue);
    expect(queries.organizationsOfUser('u-cat')).toEqual([{ organizationId: 'acme', name: 'Acme', role: 'member' }]);

    commit(recorded.slice(-1));

    expect(queries.organizationsOfUser('u-cat')).toEqual([{ organizationId: 'acme', name: 'Acme', role: 'admin' }]);
    expect(queries.getOrganization('acme')?.view.members.find((member) => member.userId === 'u-cat')?.role).toBe(
      'admin',
    );
  });

  it('adds, changes or removes one member by writing that member’s row alone, however many there are', () => {
    const members: OrganizationEvent[] = Array.from({ length: 80 }, (_, index) => ({
      type: 'MemberAdded',
      data: {
        userId: `u-${String(index).padStart(2, '0')}`,
        email: `u${index}@crowd.test`,
        role: index === 0 ? 'owner' : 'member',
        chorusUser: false,
      },
    }));
    const crowd: OrganizationEvent[] = [
      { type: 'OrganizationCreated', data: { id: 'crowd', name: 'Crowd' } },
      ...members,
    ];
    commit(recordOrganizationEvents('crowd', crowd));
    const rowsWritten = (events: OrganizationEvent[], fromRevision: bigint): number => {
      const before = db.prepare('SELECT total_changes()').pluck().get() as number;
      commit(recordOrganizationEvents('crowd', events, { fromRevision, fromPosition: fromRevision + 1n }));
      return (db.prepare('SELECT total_changes()').pluck().get() as number) - before;
    };

    // The organization's row and the one membership row: not the 80 others.
    expect(
      rowsWritten(
        [{ type: 'MemberAdded', data: { userId: 'u-new', email: 'new@crowd.test', role: 'member', chorusUser: true } }],
        81n,
      ),
    ).toBe(2);
    expect(
      rowsWritten(
        [
          {
            type: 'MemberRoleChanged',
            data: { userId: 'u-07', email: 'u7@crowd.test', role: 'admin', previousRole: 'member' },
          },
        ],
        82n,
      ),
    ).toBe(2);
    expect(rowsWritten([{ type: 'MemberRemoved', data: { userId: 'u-08' } }], 83n)).toBe(2);
    expect(
      rowsWritten([{ type: 'SiteAdded', data: { siteId: 's-1', name: 'Shop', hostname: 'shop.crowd.test' } }], 84n),
    ).toBe(1);
    const userIds = db
      .prepare("SELECT user_id FROM memberships WHERE organization_id = 'crowd' ORDER BY user_id")
      .pluck()
      .all();
    expect(userIds).toHaveLength(80);
    expect(userIds).not.toContain('u-08');
  });

  it('keeps the members in the order of the fold through changes, removals and a member added again', () => {
    const events: OrganizationEvent[] = [
      { type: 'OrganizationCreated', data: { id: 'acme', name: 'Acme' } },
      ...['a', 'b', 'c', 'd'].map((name): OrganizationEvent => ({
        type: 'MemberAdded',
        data: { userId: `u-${name}`, email: `${name}@acme.test`, role: 'member', chorusUser: false },
      })),
      {
        type: 'MemberRoleChanged',
        data: { userId: 'u-b', email: 'b@acme.test', role: 'admin', previousRole: 'member' },
      },
      { type: 'MemberRemoved', data: { userId: 'u-a' } },
      // evolve takes a member added again to the end, with the new details.
      { type: 'MemberAdded', data: { userId: 'u-b', email: 'b@acme.test', role: 'owner', chorusUser: true } },
      { type: 'MemberAdded', data: { userId: 'u-e', email: 'e@acme.test', role: 'member', chorusUser: false } },
      {
        type: 'MemberRoleChanged',
        data: { userId: 'u-c', email: 'c@acme.test', role: 'admin', previousRole: 'member' },
      },
      { type: 'MemberAdded', data: { userId: 'u-a', email: 'a@acme.test', role: 'member', chorusUser: true } },
    ];
    const state = foldOrganization(events);
    if (!state.exists) throw new Error('the history creates the organization');
    const recordedEvents = recordOrganizationEvents('acme', events);
    // In one commit, one commit per event, and in commits of three remembered by the writer in between.
    const ways: ((events: readonly RecordedEvent[]) => void)[] = [
      (all) => commit(all),
      (all) => all.forEach((event) => commit([event])),
      (all) => {
        for (let from = 0; from < all.length; from += 3) {
          db.transaction(() => {
            for (const event of all.slice(from, from + 3)) writer.apply(event);
            writer.flush();
          })();
        }
      },
    ];
    for (const way of ways) {
      db.exec('DELETE FROM organizations; DELETE FROM memberships');
      writer.discard();
      way(recordedEvents);
      expect(new OrganizationQueries(db, catalogue).getOrganization('acme')?.view.members).toEqual(
        state.members.toArray(),
      );
    }
  });

  it('flushed in chunks, with events applied between the chunks, writes the same model as in one go', () => {
    const organizations = ['c', 'a', 'b'].map((id, index) =>
      recordOrganizationEvents(
        id,
        [{ type: 'OrganizationCreated', data: { id, name: id.toUpperCase() } }, ...history.slice(1, 9)],
        {
          fromPosition: BigInt(index * 100 + 1),
        },
      ),
    );
    const firstHalf = organizations.flatMap((events) => events.slice(0, 5));
    const secondHalf = organizations.flatMap((events) => events.slice(5));
    db.transaction(() => {
      for (const event of firstHalf) writer.apply(event);
      expect(writer.flush(2)).toBe(false);
      // 'a' and 'b' are written; more of their events (and of 'c') arrive before the next chunk.
      for (const event of secondHalf) writer.apply(event);
      expect(writer.flush(1)).toBe(false);
      expect(writer.flush()).toBe(true);
    })();
    writer.forget();
    const chunked = model();

    const other = openReadModelDatabase(':memory:');
    createTables(other, projection);
    const inOneGo = projection.writer(other, liveTableNames(projection));
    other.transaction(() => {
      for (const event of [...firstHalf, ...secondHalf]) inOneGo.apply(event);
      inOneGo.flush();
    })();
    expect(chunked).toEqual({
      organizations: other.prepare('SELECT * FROM organizations ORDER BY id').safeIntegers(true).all(),
      memberships: other.prepare('SELECT * FROM memberships ORDER BY organization_id, user_id').all(),
    });
    other.close();
  });

  it('into tables that start empty (a rebuild), writes the rows the live writer writes', () => {
    // Many organizations, interleaved as a log interleaves them, written in two chunks with events between;
    // a member added then removed, and one whose role changed, before the organization was first written.
    const organizations = Array.from({ length: 150 }, (_, index) =>
      recordOrganizationEvents(
        `org-${index}`,
        [{ type: 'OrganizationCreated', data: { id: `org-${index}`, name: `Org ${index}` } }, ...history.slice(1)],
        {
          fromPosition: BigInt(index * 100 + 1),
        },
      ),
    );
    const interleaved = (from: number, to: number): RecordedEvent[] =>
      organizations
        .flatMap((events) => events.slice(from, to))
        .sort((a, b) => Number(a.position % 100n) - Number(b.position % 100n));
    const firstHalf = interleaved(0, 11);
    const secondHalf = interleaved(11, history.length);

    const rebuilt = openReadModelDatabase(':memory:');
    createTables(rebuilt, projection);
    const fresh = projection.writer(rebuilt, liveTableNames(projection), { startsEmpty: true });
    rebuilt.transaction(() => {
      for (const event of firstHalf) fresh.apply(event);
      // 100 organizations written for the first time; then more events for them and for the 50 others.
      expect(fresh.flush(100)).toBe(false);
      for (const event of secondHalf) fresh.apply(event);
      expect(fresh.flush()).toBe(true);
    })();
    fresh.forget();

    commit([...firstHalf, ...secondHalf]);
    const rows = (of: ReadModelDatabase): unknown => ({
      organizations: of.prepare('SELECT * FROM organizations ORDER BY id').safeIntegers(true).all(),
      memberships: of.prepare('SELECT * FROM memberships ORDER BY organization_id, user_id').all(),
    });
    const live = rows(db) as { organizations: unknown[]; memberships: unknown[] };
    expect(live.organizations).toHaveLength(150);
    expect(live.memberships).toHaveLength(300);
    expect(rows(rebuilt)).toEqual(live);
    rebuilt.close();
  });

  it('lists every organization by name, with its plans (the Chorus plan while Chorus is off too), members and sites', () => {
    commit(recorded);
    commit(
      recordOrganizationEvents('globex', [{ type: 'OrganizationCreated', data: { id: 'globex', name: 'Globex' } }], {
        fromPosition: 500n,
      }),
    );
    commit(
      recordOrganizationEvents('ab', [{ type: 'OrganizationCreated', data: { id: 'ab', name: 'ACME  corp' } }], {
        fromPosition: 600n,
      }),
    );
    const queries = new OrganizationQueries(db, catalogue);

    expect(queries.list()).toEqual([
      {
        id: 'acme',
        name: 'Acme',
        plans: { classic: 'professional', chorus: 'teams' },
        chorus: false,
        members: 2,
        sites: 1,
        revision: BigInt(history.length - 1),
      },
      {
        id: 'ab',
        name: 'ACME  corp',
        plans: { classic: null, chorus: null },
        chorus: false,
        members: 0,
        sites: 0,
        revision: 0n,
      },
      {
        id: 'globex',
        name: 'Globex',
        plans: { classic: null, chorus: null },
        chorus: false,
        members: 0,
        sites: 0,
        revision: 0n,
      },
    ]);
    expect(queries.named(' acme ')).toEqual([{ id: 'acme', name: 'Acme' }]);
    expect(queries.named('Acme Corp')).toEqual([{ id: 'ab', name: 'ACME  corp' }]);
    expect(queries.named('Initech')).toEqual([]);
  });

  it.each([
    ['Acme', 'acme', true],
    ['Acme  Corp', ' acme corp', true],
    ['Ｃｈｏｒｕｓ', 'chorus', true],
    ['Acme', 'Acme Corp', false],
    ['Müller', 'Muller', false],
  ])('takes %j and %j for the same name: %s', (a, b, same) => {
    expect(sameOrganizationName(a, b)).toBe(same);
  });

  it('refuses, instead of skipping, an event type it does not know', () => {
    const [created] = recorded;
    const unknown = { ...recorded[1], type: UNKNOWN_EVENT_TYPE } as RecordedEvent;
    expect(() => commit([created as RecordedEvent, unknown])).toThrow(UnprojectableEvent);
    expect(model()).toEqual({ organizations: [], memberships: [] });
  });

  it('refuses a stream that does not start with OrganizationCreated, and a gap in revisions', () => {
    expect(() => commit(recorded.slice(1, 2).map((event) => ({ ...event, revision: 0n })))).toThrow(
      /OrganizationCreated/,
    );
    writer.discard();
    expect(() => commit([recorded[0] as RecordedEvent, recorded[2] as RecordedEvent])).toThrow(/missing/);
  });
});
