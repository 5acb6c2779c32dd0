// The organization read model: per organization, the fold of its stream with the domain's own
// `evolve`. No rule is implemented a second time here.
import {
  evolve,
  initialOrganizationState,
  organizationStreamPrefix,
  type OrganizationEvent,
  type OrganizationEventType,
  type OrganizationState,
} from '#domain';
import type { RecordedEvent } from '#event-store';
import { physicalName, type Projection, type ProjectionWriter, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { membershipsTable, organizationsTable } from './organization.tables.js';

export const organizationProjectionName = 'organizations';

/** Every type `evolve` folds. Another type in an organization stream stops the projection rather than being skipped. */
const organizationEventTypes: Record<OrganizationEventType, true> = {
  OrganizationCreated: true,
  PlanAssigned: true,
  AddOnPurchased: true,
  AddOnCancelled: true,
  ChorusEnabled: true,
  ChorusDisabled: true,
  LimitsConfigured: true,
  MemberAdded: true,
  MemberRemoved: true,
  SiteAdded: true,
  SiteRemoved: true,
  QualityAssuranceDomainAdded: true,
  QualityAssuranceDomainRemoved: true,
  WebAnalyticsDomainAdded: true,
  WebAnalyticsDomainRemoved: true,
};

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
};

type StoredRow = { revision: bigint; position: bigint; state: string };

class OrganizationWriter implements ProjectionWriter {
  /** By stream id. */
  private readonly folded = new Map<string, Folded>();
  private readonly unflushed = new Set<Folded>();
  /** `unflushed` in key order, while a flush in chunks is under way. */
  private flushQueue: Folded[] | undefined;
  /** With tables that started empty: the only organizations worth looking up. */
  private readonly written = new Set<string>();
  private readonly select;
  private readonly insert;
  private readonly update;
  private readonly deleteMemberships;
  private readonly insertMembership;

  constructor(
    db: ReadModelDatabase,
    tables: TableNames,
    private readonly startsEmpty: boolean,
  ) {
    const organizations = physicalName(tables, organizationsTable.name);
    const memberships = physicalName(tables, membershipsTable.name);
    this.select = db.prepare<[string], StoredRow>(`SELECT revision, position, state FROM ${organizations} WHERE id = ?`).safeIntegers(true);
    this.insert = db.prepare(`INSERT INTO ${organizations} (id, name, revision, position, state) VALUES (?, ?, ?, ?, ?)`);
    this.update = db.prepare(`UPDATE ${organizations} SET name = ?, revision = ?, position = ?, state = ? WHERE id = ?`);
    this.deleteMemberships = db.prepare(`DELETE FROM ${memberships} WHERE organization_id = ?`);
    this.insertMembership = db.prepare(`INSERT INTO ${memberships} (organization_id, user_id, role) VALUES (?, ?, ?)`);
  }

  get remembered(): number {
    return this.folded.size;
  }

  apply(event: RecordedEvent): void {
    if (!Object.hasOwn(organizationEventTypes, event.type)) throw new UnprojectableEvent(event, 'unknown event type');
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
    this.unflushed.add(current);
    this.flushQueue = undefined;
  }

  flush(maxAggregates = Number.POSITIVE_INFINITY): boolean {
    // In key order, a rebuild's many rows fill the tables' pages one after another instead of at random.
    this.flushQueue ??= [...this.unflushed].sort(byId);
    const batch = this.flushQueue.splice(0, maxAggregates);
    for (const organization of batch) {
      this.write(organization);
      this.unflushed.delete(organization);
    }
    if (this.flushQueue.length > 0) return false;
    this.flushQueue = undefined;
    return true;
  }

  discard(): void {
    this.unflushed.clear();
    this.flushQueue = undefined;
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
        ? { id, state: initialOrganizationState, revision: -1, position: -1n, stored: false, membersChanged: false }
        : { id, state: JSON.parse(row.state) as OrganizationState, revision: Number(row.revision), position: row.position, stored: true, membersChanged: false };
    this.folded.set(streamId, organization);
    return organization;
  }

  private write(organization: Folded): void {
    const { id, state, revision, position } = organization;
    if (!state.exists) return;
    const json = JSON.stringify(state);
    if (organization.stored) this.update.run(state.name, revision, position, json, id);
    else this.insert.run(id, state.name, revision, position, json);
    if (organization.membersChanged) {
      if (organization.stored) this.deleteMemberships.run(id);
      for (const member of state.members) this.insertMembership.run(id, member.userId, member.role);
      organization.membersChanged = false;
    }
    organization.stored = true;
    if (this.startsEmpty) this.written.add(id);
  }
}

function byId(a: Folded, b: Folded): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
