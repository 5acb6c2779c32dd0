// The view is derived when read: plan figures are code, not events, so a new catalogue applies without a rebuild.
import {
  notificationRecipients,
  organizationView,
  USAGE_EVENT_TYPES,
  type ExistingOrganization,
  type LimitInputs,
  type Member,
  type MemberRole,
  type OrganizationView,
  type PlanCatalogue,
} from '#domain';
import { deepFreeze, type QueryCache } from '../query-cache.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { storedState } from './organization.projection.js';
import type { UsagePointRow } from './organization-usage.js';
import { membershipsTable, organizationsTable, organizationUsageTable } from './organization.tables.js';

export type OrganizationReadModel = {
  view: OrganizationView;
  position: bigint;
  revision: bigint;
};

/**
 * The organization without its member list: `view.members` holds only the owners, and `memberCount` says how many
 * members there are.
 */
export type OrganizationOutline = OrganizationReadModel & { memberCount: number };

/** The state's members list is empty. */
export type CountedOrganization = { state: ExistingOrganization; members: number; position: bigint };

export type NotificationRecipients = { recipients: Member[]; position: bigint };

export type Membership = { organizationId: string; name: string; role: MemberRole };

/** Where a page ends: the next one starts after this member, in the fold's order. */
export type MemberCursor = { ordinal: bigint; userId: string };

export type MembersPage = {
  members: Member[];
  /** The members the query matches, in all pages. */
  total: number;
  next: MemberCursor | undefined;
  position: bigint;
};

type StoredRow = { state: string; position: bigint; revision: bigint; member: string | null };

type StoredUsageRow = [number, string, 0 | 1, number, number, string | null];

export type OrganizationSummary = {
  id: string;
  name: string;
  /** The Chorus plan is there whether or not Chorus is enabled. */
  plans: ExistingOrganization['plans'];
  chorus: boolean;
  members: number;
  sites: number;
  revision: bigint;
};

/** Whatever their case, Unicode form or spacing ('Acme  Corp' and 'acme corp'). */
export function sameOrganizationName(a: string, b: string): boolean {
  return comparableName(a) === comparableName(b);
}

const comparableName = (name: string): string =>
  name.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLocaleLowerCase('en-US');

export class OrganizationQueries {
  private readonly selectState;
  private readonly selectOutline;
  private readonly selectMemberships;
  private readonly selectRequiringTwoStep;
  private readonly selectAll;
  private readonly selectNames;
  private readonly selectCounted;
  private readonly db: ReadModelDatabase;
  private readonly selectPageHead;
  private readonly selectPage;
  private readonly countPage;
  private readonly selectUsage;

  constructor(
    db: ReadModelDatabase,
    private readonly catalogue: PlanCatalogue,
    /** Only on a connection nothing writes through. */
    private readonly cache?: QueryCache,
  ) {
    this.db = db;
    db.exec(organizationsTable.create(organizationsTable.name));
    db.exec(membershipsTable.create(membershipsTable.name));
    db.exec(organizationUsageTable.create(organizationUsageTable.name));
    // Arrays, not objects, and a flag, not the type's text: an organization of 100,000 members reads 100,000 rows.
    const usageTypes = [...USAGE_EVENT_TYPES].map((type) => `'${type}'`).join(', ');
    this.selectUsage = db
      .prepare<[string], StoredUsageRow>(
        `SELECT revision, recorded_at, type IN (${usageTypes}), users, content_sections, limits_state
         FROM organization_usage WHERE organization_id = ? ORDER BY revision`,
      )
      .raw(true);
    // One statement, so one snapshot: the row and its members as one commit left them.
    this.selectState = db
      .prepare<[string], StoredRow>(
        `SELECT o.state, o.position, o.revision, m.member FROM organizations o
         LEFT JOIN memberships m ON m.organization_id = o.id WHERE o.id = ? ORDER BY m.ordinal`,
      )
      .safeIntegers(true);
    // The owners only, by their own index: an organization of 100,000 members reads a handful of rows.
    this.selectOutline = db
      .prepare<[string], StoredRow & { members: bigint }>(
        `SELECT o.state, o.position, o.revision, o.member_count AS members, m.member FROM organizations o
         LEFT JOIN memberships m ON m.organization_id = o.id AND m.role = 'owner' WHERE o.id = ? ORDER BY m.ordinal`,
      )
      .safeIntegers(true);
    this.selectMemberships = db.prepare<[string], Membership>(
      `SELECT m.organization_id AS organizationId, o.name AS name, m.role AS role
       FROM memberships m JOIN organizations o ON o.id = m.organization_id
       WHERE m.user_id = ? ORDER BY o.name, o.id`,
    );
    // Read at every password sign-in without a second factor: one indexed query, no view folded.
    this.selectRequiringTwoStep = db.prepare<[string], { id: string; name: string }>(
      `SELECT o.id AS id, o.name AS name FROM memberships m JOIN organizations o ON o.id = m.organization_id
       WHERE m.user_id = ? AND json_extract(o.state, '$.twoStepSignInRequired') = 1 ORDER BY o.name, o.id`,
    );
    this.selectAll = db
      .prepare<[], { state: string; revision: bigint; members: bigint }>(
        `SELECT o.state, o.revision, o.member_count AS members FROM organizations o
         ORDER BY o.name COLLATE NOCASE, o.id`,
      )
      .safeIntegers(true);
    this.selectNames = db.prepare<[], { id: string; name: string }>(
      'SELECT id, name FROM organizations ORDER BY name COLLATE NOCASE, id',
    );
    this.selectCounted = db
      .prepare<[string], { state: string; position: bigint; members: bigint }>(
        `SELECT o.state, o.position, o.member_count AS members FROM organizations o WHERE o.id = ?`,
      )
      .safeIntegers(true);
    this.selectPageHead = db
      .prepare<[string], { position: bigint; members: bigint }>(
        'SELECT position, member_count AS members FROM organizations WHERE id = ?',
      )
      .safeIntegers(true);
    const matching = `m.organization_id = @id AND (@like IS NULL OR json_extract(m.member, '$.email') LIKE @like ESCAPE '\\')`;
    this.selectPage = db
      .prepare<
        { id: string; like: string | null; ordinal: bigint | null; userId: string; limit: number },
        { member: string; ordinal: bigint; userId: string }
      >(
        `SELECT m.member, m.ordinal, m.user_id AS userId FROM memberships m
         WHERE ${matching} AND (@ordinal IS NULL OR (m.ordinal, m.user_id) > (@ordinal, @userId))
         ORDER BY m.ordinal, m.user_id LIMIT @limit`,
      )
      .safeIntegers(true);
    this.countPage = db
      .prepare<{ id: string; like: string | null }, { total: bigint }>(
        `SELECT count(*) AS total FROM memberships m WHERE ${matching}`,
      )
      .safeIntegers(true);
  }

  /**
   * The usage points the model keeps (from USAGE_ROWS_FROM_REVISION on), in revision order; empty for an organization
   * that has not grown that far, or that the model does not hold (yet).
   */
  usageOf(id: string): UsagePointRow[] {
    const rows = this.selectUsage.all(id) as unknown as UsagePointRow[];
    for (const row of rows) {
      const stored = row[5] as unknown as string | null;
      if (stored !== null) row[5] = JSON.parse(stored) as LimitInputs;
    }
    return rows;
  }

  list(): OrganizationSummary[] {
    return this.selectAll.all().map((row) => {
      const state = storedState(row.state, []);
      return {
        id: state.id,
        name: state.name,
        plans: state.plans,
        chorus: state.chorus.enabled,
        members: Number(row.members),
        sites: state.sites.length,
        revision: row.revision,
      };
    });
  }

  named(name: string): { id: string; name: string }[] {
    return this.selectNames.all().filter((row) => sameOrganizationName(row.name, name));
  }

  /** Shared, so frozen. */
  getOrganization(id: string): Readonly<OrganizationReadModel> | undefined {
    return this.cached(`organization ${id}`, () => {
      const stored = this.stored(id);
      if (stored === undefined) return undefined;
      return {
        view: organizationView(stored.state, this.catalogue),
        position: stored.position,
        revision: stored.revision,
      };
    });
  }

  /**
   * GET /organizations/:id?members=none: the view with its owners as its members and the count of all of them, so
   * that what it costs does not grow with the organization. Shared, so frozen.
   */
  getOrganizationOutline(id: string): Readonly<OrganizationOutline> | undefined {
    return this.cached(`outline ${id}`, () => {
      const rows = this.selectOutline.all(id);
      const first = rows[0];
      if (first === undefined) return undefined;
      const owners = first.member === null ? [] : rows.map((row) => row.member as string);
      const memberCount = Number(first.members);
      return {
        view: organizationView(storedState(first.state, owners), this.catalogue, memberCount),
        memberCount,
        position: first.position,
        revision: first.revision,
      };
    });
  }

  /** Seed section 6. Shared, so frozen. */
  getNotificationRecipients(id: string): Readonly<NotificationRecipients> | undefined {
    return this.cached(`recipients ${id}`, () => {
      const stored = this.stored(id);
      if (stored === undefined) return undefined;
      return { recipients: notificationRecipients(stored.state), position: stored.position };
    });
  }

  /** Entitlements need only the count: an enterprise's thousand member rows are never read for them. */
  getCountedOrganization(id: string): Readonly<CountedOrganization> | undefined {
    return this.cached(`counted ${id}`, () => {
      const row = this.selectCounted.get(id);
      return row === undefined
        ? undefined
        : { state: storedState(row.state, []), members: Number(row.members), position: row.position };
    });
  }

  /**
   * One page of an organization's members in the fold's order (as GET /organizations/:id lists them), found by the
   * index from where the last page ended; `q` keeps those whose address holds it, whatever its case. Undefined for
   * no such organization. Read in one transaction: the page, its count and its position are one commit's.
   */
  membersPage(
    id: string,
    { after, limit, q }: { after?: MemberCursor; limit: number; q?: string },
  ): MembersPage | undefined {
    const like = q === undefined ? null : `%${q.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    return this.db.transaction(() => {
      const organization = this.selectPageHead.get(id);
      if (organization === undefined) return undefined;
      const rows = this.selectPage.all({
        id,
        like,
        ordinal: after?.ordinal ?? null,
        userId: after?.userId ?? '',
        limit: limit + 1,
      });
      // Without a search, the organization's own count: counting its rows grew with the organization, the page does not.
      const total =
        like === null ? organization.members : (this.countPage.get({ id, like }) as { total: bigint }).total;
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        members: page.map((row) => JSON.parse(row.member) as Member),
        total: Number(total),
        next: rows.length > limit && last !== undefined ? { ordinal: last.ordinal, userId: last.userId } : undefined,
        position: organization.position,
      };
    })();
  }

  organizationsOfUser(userId: string): Membership[] {
    return this.selectMemberships.all(userId);
  }

  organizationsRequiringTwoStep(userId: string): { id: string; name: string }[] {
    return this.selectRequiringTwoStep.all(userId);
  }

  private cached<T>(key: string, query: () => T): T {
    return this.cache === undefined ? deepFreeze(query()) : this.cache.get(key, () => deepFreeze(query()));
  }

  private stored(id: string): { state: ExistingOrganization; position: bigint; revision: bigint } | undefined {
    const rows = this.selectState.all(id);
    const first = rows[0];
    if (first === undefined) return undefined;
    const members = first.member === null ? [] : rows.map((row) => row.member as string);
    return { state: storedState(first.state, members), position: first.position, revision: first.revision };
  }
}
