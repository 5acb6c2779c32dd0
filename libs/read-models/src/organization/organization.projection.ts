// The domain's own `evolve`: no rule is implemented a second time here.
import {
  Members,
  evolve,
  initialOrganizationState,
  ORGANIZATION_EVENT_TYPES,
  organizationStreamPrefix,
  type ExistingOrganization,
  type Member,
  type OrganizationEvent,
  type OrganizationState,
} from '#domain';
import type { LogEvent } from '#event-store';
import { PendingRows } from '../pending-rows.js';
import { recordMemberRowChange, type MemberWrite } from './member-row-changes.js';
import { physicalName, type Projection, type ProjectionWriter, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import {
  membershipsTable,
  organizationModelVersion,
  organizationsTable,
  organizationUsageTable,
} from './organization.tables.js';
import { storedOrganizationState } from './stored-organization-state.js';
import { USAGE_ROWS_FROM_REVISION, usagePointAfter } from './organization-usage.js';

export const organizationProjectionName = 'organizations';

/** Another type in an organization stream stops the projection rather than being skipped. */
const knownEventTypes: ReadonlySet<string> = new Set(ORGANIZATION_EVENT_TYPES);

export class UnprojectableEvent extends Error {
  constructor(event: LogEvent, reason: string) {
    super(`${event.streamId}@${event.revision} (${event.type}, position ${event.position}): ${reason}`);
    this.name = 'UnprojectableEvent';
  }
}

export function organizationProjection(): Projection<'recordedAt'> {
  return {
    name: organizationProjectionName,
    parts: ['recordedAt'],
    tables: [organizationsTable, membershipsTable, organizationUsageTable],
    streamPrefix: organizationStreamPrefix,
    handles: (event) => event.streamId.startsWith(organizationStreamPrefix),
    writer: (db, tables, options) => new OrganizationWriter(db, tables, options?.startsEmpty === true),
    version: organizationModelVersion,
  };
}

type Folded = {
  id: string;
  state: OrganizationState;
  /** -1 before the first event; a number is cheaper than a bigint per event. */
  revision: number;
  position: bigint;
  /** Whether the table may hold a row for it. */
  stored: boolean;
  memberWrites: Map<string, MemberWrite> | undefined;
  /** organization_usage's rows of the events applied since the last write. */
  usage: UsageRow[];
  dirty: boolean;
};

/** revision, recorded_at, type, users, content_sections, limits_state. */
type UsageRow = [number, string, string, number, number, string | null];

type StoredRow = { revision: bigint; position: bigint; state: string };

class OrganizationWriter implements ProjectionWriter<'recordedAt'> {
  private readonly folded = new Map<string, Folded>();
  /** A flag and a list cost less per event than a set. */
  private readonly unflushed = new PendingRows<Folded>((folded) => this.write(folded), byId);
  /** With tables that started empty, the only organizations worth looking up. */
  private readonly written = new Set<string>();
  private readonly select;
  private readonly selectMembers;
  private readonly insert;
  private readonly update;
  private readonly insertMember;
  private readonly upsertMember;
  private readonly updateMember;
  private readonly deleteMember;
  private readonly insertUsage;

  constructor(
    db: ReadModelDatabase,
    tables: TableNames,
    private readonly startsEmpty: boolean,
  ) {
    const organizations = physicalName(tables, organizationsTable.name);
    const memberships = physicalName(tables, membershipsTable.name);
    this.select = db
      .prepare<[string], StoredRow>(`SELECT revision, position, state FROM ${organizations} WHERE id = ?`)
      .safeIntegers(true);
    this.selectMembers = db
      .prepare<[string], string>(`SELECT member FROM ${memberships} WHERE organization_id = ? ORDER BY ordinal`)
      .pluck();
    this.insert = db.prepare(
      `INSERT INTO ${organizations} (id, name, revision, position, state, member_count) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.update = db.prepare(
      `UPDATE ${organizations} SET name = ?, revision = ?, position = ?, state = ?, member_count = ? WHERE id = ?`,
    );
    // Rows and member rows are written together: no conflict to look for.
    this.insertMember = db.prepare(
      `INSERT INTO ${memberships} (organization_id, user_id, role, ordinal, member) VALUES (?, ?, ?, ?, ?)`,
    );
    this.upsertMember = db.prepare(
      `INSERT INTO ${memberships} (organization_id, user_id, role, ordinal, member) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role, ordinal = excluded.ordinal, member = excluded.member`,
    );
    this.updateMember = db.prepare(
      `UPDATE ${memberships} SET role = ?, member = ? WHERE organization_id = ? AND user_id = ?`,
    );
    this.deleteMember = db.prepare(`DELETE FROM ${memberships} WHERE organization_id = ? AND user_id = ?`);
    this.insertUsage = db.prepare(
      `INSERT INTO ${physicalName(tables, organizationUsageTable.name)}
       (organization_id, revision, recorded_at, type, users, content_sections, limits_state) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  get remembered(): number {
    return this.folded.size;
  }

  apply(event: LogEvent<'recordedAt'>): void {
    if (!knownEventTypes.has(event.type)) throw new UnprojectableEvent(event, 'unknown event type');
    if (typeof event.data !== 'object' || event.data === null)
      throw new UnprojectableEvent(event, 'event data is not an object');
    const current = this.folded.get(event.streamId) ?? this.load(event.streamId);
    const revision = Number(event.revision);
    if (revision <= current.revision) return;
    if (revision !== current.revision + 1) {
      throw new UnprojectableEvent(event, `follows revision ${current.revision}: events of the stream are missing`);
    }
    const previous = current.state;
    const state = evolve(previous, event as unknown as OrganizationEvent);
    if (!state.exists) throw new UnprojectableEvent(event, 'the stream does not start with OrganizationCreated');
    // evolve never mutates: unchanged members are the same value.
    const before = previous.exists ? previous.members : Members.none;
    if (state.members !== before) {
      const { userId } = event.data as { userId?: unknown };
      if (typeof userId !== 'string') throw new UnprojectableEvent(event, 'changes members without naming one');
      recordMemberRowChange((current.memberWrites ??= new Map()), before, state.members, userId, revision);
    }
    if (revision >= USAGE_ROWS_FROM_REVISION) {
      const [, , , users, contentSections, limits] = usagePointAfter(event, state);
      current.usage.push([
        revision,
        event.recordedAt,
        event.type,
        users,
        contentSections,
        limits === null ? null : JSON.stringify(limits),
      ]);
    }
    current.state = state;
    current.revision = revision;
    current.position = event.position;
    if (!current.dirty) {
      current.dirty = true;
      this.unflushed.push(current);
    }
  }

  flush(maxAggregates?: number): boolean {
    return this.unflushed.flush(maxAggregates);
  }

  discard(): void {
    this.unflushed.discard();
    this.folded.clear();
  }

  forget(): void {
    if (this.unflushed.size > 0) throw new Error('forget() with unflushed organizations');
    this.folded.clear();
  }

  private load(streamId: string): Folded {
    const id = streamId.slice(organizationStreamPrefix.length);
    const row = this.startsEmpty && !this.written.has(id) ? undefined : this.select.get(id);
    const organization: Folded =
      row === undefined
        ? {
            id,
            state: initialOrganizationState,
            revision: -1,
            position: -1n,
            stored: false,
            memberWrites: undefined,
            usage: [],
            dirty: false,
          }
        : {
            id,
            state: storedState(row.state, this.selectMembers.all(id)),
            revision: Number(row.revision),
            position: row.position,
            stored: true,
            memberWrites: undefined,
            usage: [],
            dirty: false,
          };
    this.folded.set(streamId, organization);
    return organization;
  }

  private write(organization: Folded): void {
    const { id, state, revision, position, stored } = organization;
    organization.dirty = false;
    if (!state.exists) return;
    const { members: _members, ...withoutMembers } = state;
    const json = JSON.stringify(withoutMembers);
    if (stored) this.update.run(state.name, revision, position, json, state.members.size, id);
    else this.insert.run(id, state.name, revision, position, json, state.members.size);
    const addMember = stored ? this.upsertMember : this.insertMember;
    const memberWrites = organization.memberWrites;
    if (memberWrites !== undefined) {
      for (const [userId, change] of memberWrites) {
        if (change === null) this.deleteMember.run(id, userId);
        else if (change.ordinal === undefined)
          this.updateMember.run(change.member.role, JSON.stringify(change.member), id, userId);
        else addMember.run(id, userId, change.member.role, change.ordinal, JSON.stringify(change.member));
      }
      organization.memberWrites = undefined;
    }
    for (const row of organization.usage) this.insertUsage.run(id, ...row);
    organization.usage = [];
    organization.stored = true;
    if (this.startsEmpty) this.written.add(id);
  }
}

export function storedState(stateJson: string, memberJson: readonly string[]): ExistingOrganization {
  const state = storedOrganizationState(stateJson) as Omit<ExistingOrganization, 'members'>;
  // The counted reads (entitlements, the list) pass no members: they share the one empty list.
  const members =
    memberJson.length === 0 ? Members.none : Members.of(memberJson.map((member) => JSON.parse(member) as Member));
  return { ...state, members };
}

function byId(a: Folded, b: Folded): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
