// The organization read model: per organization, the fold of its stream with the domain's own
// `evolve`. No rule is implemented a second time here.
import type { Statement } from 'better-sqlite3';
import {
  evolve,
  initialOrganizationState,
  ORGANIZATION_EVENT_TYPES,
  organizationStreamPrefix,
  type Member,
  type OrganizationEvent,
  type OrganizationState,
} from '#domain';
import type { RecordedEvent } from '#event-store';
import { physicalName, type Projection, type ProjectionWriter, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { membershipsTable, organizationsTable } from './organization.tables.js';
import { storedOrganizationState } from './stored-organization-state.js';

export const organizationProjectionName = 'organizations';

/** Every type `evolve` folds. Another type in an organization stream stops the projection rather than being skipped. */
const knownEventTypes: ReadonlySet<string> = new Set(ORGANIZATION_EVENT_TYPES);

/** An organization's memberships go in by one INSERT of up to this many rows, not one per member. */
const membershipsPerInsert = 8;

/** An event the model cannot take: the runner stops the projection at it. */
export class UnprojectableEvent extends Error {
  constructor(event: RecordedEvent, reason: string) {
    super(`${event.streamId}@${event.revision} (${event.type}, position ${event.position}): ${reason}`);
    this.name = 'UnprojectableEvent';
  }
}

export function organizationProjection(): Projection {
  return {
    name: organizationProjectionName,
    tables: [organizationsTable, membershipsTable],
    handles: (event) => event.streamId.startsWith(organizationStreamPrefix),
    writer: (db, tables, options) => new OrganizationWriter(db, tables, options?.startsEmpty === true),
  };
}

type Folded = {
  id: string;
  state: OrganizationState;
  /** Stream revision of the last event folded; -1 before the first (a number: cheaper than a bigint per event). */
  revision: number;
  position: bigint;
  /** Whether the table may hold a row for it. */
  stored: boolean;
  membersChanged: boolean;
  /** Changed since it was last written (it is then in `unflushed`). */
  dirty: boolean;
};

type StoredRow = { revision: bigint; position: bigint; state: string };

class OrganizationWriter implements ProjectionWriter {
  /** By stream id. */
  private readonly folded = new Map<string, Folded>();
  /** The dirty organizations from `flushed` on: a flag and an array cost less per event than a set. */
  private unflushed: Folded[] = [];
  /** How many of `unflushed` a flush in chunks has written. */
  private flushed = 0;
  /** Whether `unflushed` is in key order (it is sorted when a flush starts). */
  private inKeyOrder = true;
  /** With tables that started empty: the only organizations worth looking up. */
  private readonly written = new Set<string>();
  private readonly select;
  private readonly insert;
  private readonly update;
  private readonly deleteMemberships;
  private readonly membershipsTable: string;
  /** By row count - 1: INSERTs of that many memberships, prepared when first needed. */
  private readonly insertMemberships: Statement[] = [];

  constructor(
    private readonly db: ReadModelDatabase,
    tables: TableNames,
    private readonly startsEmpty: boolean,
  ) {
    const organizations = physicalName(tables, organizationsTable.name);
    const memberships = physicalName(tables, membershipsTable.name);
    this.membershipsTable = memberships;
    this.select = db.prepare<[string], StoredRow>(`SELECT revision, position, state FROM ${organizations} WHERE id = ?`).safeIntegers(true);
    this.insert = db.prepare(`INSERT INTO ${organizations} (id, name, revision, position, state) VALUES (?, ?, ?, ?, ?)`);
    this.update = db.prepare(`UPDATE ${organizations} SET name = ?, revision = ?, position = ?, state = ? WHERE id = ?`);
    this.deleteMemberships = db.prepare(`DELETE FROM ${memberships} WHERE organization_id = ?`);
  }

  get remembered(): number {
    return this.folded.size;
  }

  apply(event: RecordedEvent): void {
    if (!knownEventTypes.has(event.type)) throw new UnprojectableEvent(event, 'unknown event type');
    if (typeof event.data !== 'object' || event.data === null) throw new UnprojectableEvent(event, 'event data is not an object');
    const current = this.folded.get(event.streamId) ?? this.load(event.streamId);
    const revision = Number(event.revision);
    // Already folded: applying an event twice leaves the model as it is.
    if (revision <= current.revision) return;
    if (revision !== current.revision + 1) {
      throw new UnprojectableEvent(event, `follows revision ${current.revision}: events of the stream are missing`);
    }
    // A recorded event carries its type and data as an OrganizationEvent does.
    const state = evolve(current.state, event as unknown as OrganizationEvent);
    if (!state.exists) throw new UnprojectableEvent(event, 'the stream does not start with OrganizationCreated');
    // evolve never mutates: a new members array means the memberships rows must be rewritten.
    current.membersChanged ||= !current.state.exists || state.members !== current.state.members;
    current.state = state;
    current.revision = revision;
    current.position = event.position;
    if (!current.dirty) {
      current.dirty = true;
      this.unflushed.push(current);
      this.inKeyOrder = false;
    }
  }

  flush(maxAggregates = Number.POSITIVE_INFINITY): boolean {
    // In key order, a rebuild's many rows fill the tables' pages one after another instead of at random.
    if (!this.inKeyOrder) {
      this.unflushed = this.unflushed.slice(this.flushed).sort(byId);
      this.flushed = 0;
      this.inKeyOrder = true;
    }
    const end = Math.min(this.unflushed.length, this.flushed + maxAggregates);
    for (let index = this.flushed; index < end; index += 1) this.write(this.unflushed[index] as Folded);
    this.flushed = end;
    if (end < this.unflushed.length) return false;
    this.unflushed = [];
    this.flushed = 0;
    return true;
  }

  discard(): void {
    this.unflushed = [];
    this.flushed = 0;
    this.inKeyOrder = true;
    this.folded.clear();
  }

  forget(): void {
    if (this.unflushed.length > this.flushed) throw new Error('forget() with unflushed organizations');
    this.folded.clear();
  }

  private load(streamId: string): Folded {
    const id = streamId.slice(organizationStreamPrefix.length);
    const row = this.startsEmpty && !this.written.has(id) ? undefined : this.select.get(id);
    const organization: Folded =
      row === undefined
        ? { id, state: initialOrganizationState, revision: -1, position: -1n, stored: false, membersChanged: false, dirty: false }
        : {
            id,
            state: storedOrganizationState(row.state),
            revision: Number(row.revision),
            position: row.position,
            stored: true,
            membersChanged: false,
            dirty: false,
          };
    this.folded.set(streamId, organization);
    return organization;
  }

  private write(organization: Folded): void {
    const { id, state, revision, position } = organization;
    organization.dirty = false;
    if (!state.exists) return;
    const json = JSON.stringify(state);
    if (organization.stored) this.update.run(state.name, revision, position, json, id);
    else this.insert.run(id, state.name, revision, position, json);
    if (organization.membersChanged) {
      if (organization.stored) this.deleteMemberships.run(id);
      this.writeMemberships(id, state.members);
      organization.membersChanged = false;
    }
    organization.stored = true;
    if (this.startsEmpty) this.written.add(id);
  }

  private writeMemberships(id: string, members: readonly Member[]): void {
    for (let from = 0; from < members.length; from += membershipsPerInsert) {
      const to = Math.min(members.length, from + membershipsPerInsert);
      const values: string[] = [];
      for (let index = from; index < to; index += 1) {
        const member = members[index] as Member;
        values.push(id, member.userId, member.role);
      }
      this.membershipsInsert(to - from).run(values);
    }
  }

  private membershipsInsert(rows: number): Statement {
    let statement = this.insertMemberships[rows - 1];
    if (statement === undefined) {
      const placeholders = Array.from({ length: rows }, () => '(?, ?, ?)').join(', ');
      statement = this.db.prepare(`INSERT INTO ${this.membershipsTable} (organization_id, user_id, role) VALUES ${placeholders}`);
      this.insertMemberships[rows - 1] = statement;
    }
    return statement;
  }
}

function byId(a: Folded, b: Folded): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
