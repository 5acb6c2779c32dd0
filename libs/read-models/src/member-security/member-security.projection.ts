// Membership comes from the organizations' own events, in the log's order, so a rebuild gives the same rows. Each
// member's own events that an organization sees are indexed for it: the console lists the two-step ones (`listed`),
// webhooks send every one the catalogue names (sign-ins, factors, sessions). Beside them, whether each person has a
// second factor (factor-presence.writer.ts).
import { isListedSecondFactorEvent, memberActivityOf, organizationStreamPrefix, userStreamPrefix } from '#domain';
import type { LogEvent } from '#event-store';
import { physicalName, type Projection, type ProjectionWriter, type TableNames } from '../projection.js';
import { erasedMemberName } from '../erased-names.js';
import { PendingRows } from '../pending-rows.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { FactorPresenceWriter, isFactorPresenceEvent } from './factor-presence.writer.js';
import {
  memberSecondFactorsTable,
  memberSecurityEventsTable,
  securityMembershipsTable,
} from './member-security.tables.js';

export const memberSecurityProjectionName = 'member-security';

const isMembershipEvent = (event: LogEvent) =>
  (event.type === 'MemberAdded' || event.type === 'MemberRemoved' || event.type === 'MemberErased') &&
  event.streamId.startsWith(organizationStreamPrefix);

const isListed = (event: LogEvent<'recordedAt'>): boolean =>
  event.streamId.startsWith(userStreamPrefix) && isListedSecondFactorEvent(event.type, event.data);

export function memberSecurityProjection(): Projection<'recordedAt'> {
  return {
    name: memberSecurityProjectionName,
    parts: ['recordedAt'],
    version: 3,
    tables: [securityMembershipsTable, memberSecurityEventsTable, memberSecondFactorsTable],
    handles: (event) =>
      isMembershipEvent(event) ||
      isListed(event) ||
      memberActivityOf(event.streamId, event.type, event.data) !== undefined ||
      isFactorPresenceEvent(event),
    writer: (db, tables, options) =>
      new BothWriters(
        new MemberSecurityWriter(db, tables, options?.startsEmpty === true),
        new FactorPresenceWriter(db, tables),
      ),
  };
}

/** Each writer takes every event and keeps what is its own. */
class BothWriters implements ProjectionWriter<'recordedAt'> {
  constructor(
    private readonly first: ProjectionWriter<'recordedAt'>,
    private readonly second: ProjectionWriter<'recordedAt'>,
  ) {}

  get remembered(): number {
    return this.first.remembered + this.second.remembered;
  }

  apply(event: LogEvent<'recordedAt'>): void {
    this.first.apply(event);
    this.second.apply(event);
  }

  /** Up to maxAggregates each. */
  flush(maxAggregates?: number): boolean {
    return this.first.flush(maxAggregates) && this.second.flush(maxAggregates);
  }

  discard(): void {
    this.first.discard();
    this.second.discard();
  }

  forget(): void {
    this.first.forget();
    this.second.forget();
  }
}

type Membership = { organizationId: string; userId: string; email: string; since: bigint; until: bigint | null };
type MembershipRow = { organization_id: string; user_id: string; email: string; since: bigint; until: bigint | null };
type EventRow = [
  organizationId: string,
  position: bigint,
  userId: string,
  email: string,
  streamId: string,
  revision: bigint,
  type: string,
  recordedAt: string,
  listed: 0 | 1,
];

const asMembership = ({
  organization_id: organizationId,
  user_id: userId,
  email,
  since,
  until,
}: MembershipRow): Membership => ({
  organizationId,
  userId,
  email,
  since,
  until,
});
const during = (membership: Membership, position: bigint): boolean =>
  membership.since < position && (membership.until === null || membership.until > position);

/** Changes since the last flush are looked up before the table, so each event sees what the ones before it did. */
class MemberSecurityWriter implements ProjectionWriter<'recordedAt'> {
  /** By `organizationId userId`. */
  private changed = new Map<string, Membership>();
  private changedOfUser = new Map<string, Set<string>>();
  private readonly events: PendingRows<EventRow>;
  private readonly selectMembership;
  private readonly selectMembershipsOf;
  private readonly writeMembership;
  private readonly eraseMembership;
  private readonly eraseEvents;
  /** With tables that started empty, a membership never written is not looked for. */
  private readonly written = new Set<string>();

  constructor(
    db: ReadModelDatabase,
    tables: TableNames,
    private readonly startsEmpty = false,
  ) {
    const memberships = physicalName(tables, securityMembershipsTable.name);
    const events = physicalName(tables, memberSecurityEventsTable.name);
    this.selectMembership = db
      .prepare<[string, string], MembershipRow>(
        `SELECT * FROM ${memberships} WHERE organization_id = ? AND user_id = ?`,
      )
      .safeIntegers(true);
    this.selectMembershipsOf = db
      .prepare<[string], MembershipRow>(`SELECT * FROM ${memberships} WHERE user_id = ?`)
      .safeIntegers(true);
    this.writeMembership = db.prepare<[string, string, string, bigint, bigint | null]>(
      `INSERT INTO ${memberships} (organization_id, user_id, email, since, until) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (organization_id, user_id) DO UPDATE SET email = excluded.email, since = excluded.since, until = excluded.until`,
    );
    const insertEvent = db.prepare<EventRow>(
      `INSERT INTO ${events} (organization_id, position, user_id, email, stream_id, revision, type, recorded_at, listed)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    this.events = new PendingRows((row) => insertEvent.run(...row));
    this.eraseMembership = db.prepare<[string, bigint, string, string]>(
      `UPDATE ${memberships} SET email = ?, until = coalesce(until, ?) WHERE organization_id = ? AND user_id = ?`,
    );
    this.eraseEvents = db.prepare<[string, string, string]>(
      `UPDATE ${events} SET email = ? WHERE organization_id = ? AND user_id = ?`,
    );
  }

  get remembered(): number {
    return this.changed.size + this.events.size;
  }

  apply(event: LogEvent<'recordedAt'>): void {
    if (event.streamId.startsWith(organizationStreamPrefix)) {
      const organizationId = event.streamId.slice(organizationStreamPrefix.length);
      const { userId, email } = event.data as { userId: string; email?: string };
      const current = this.membership(organizationId, userId);
      // Begun or ended at or after this event: the event is one applied before.
      const newer =
        current !== undefined &&
        (current.since >= event.position || (current.until !== null && current.until >= event.position));
      if (event.type === 'MemberAdded' && !newer)
        this.change({ organizationId, userId, email: email ?? '', since: event.position, until: null });
      if (event.type === 'MemberRemoved' && current !== undefined && !newer)
        this.change({ ...current, until: event.position });
      if (event.type === 'MemberErased') this.erase(organizationId, userId, event.position);
      return;
    }
    const listed = isListed(event);
    const userId = listed
      ? event.streamId.slice(userStreamPrefix.length)
      : memberActivityOf(event.streamId, event.type, event.data)?.userId;
    if (userId === undefined) return;
    for (const membership of this.membershipsOf(userId)) {
      if (!during(membership, event.position)) continue;
      const { organizationId, email } = membership;
      this.events.push([
        organizationId,
        event.position,
        userId,
        email,
        event.streamId,
        event.revision,
        event.type,
        event.recordedAt,
        listed ? 1 : 0,
      ]);
    }
  }

  flush(maxAggregates = Number.POSITIVE_INFINITY): boolean {
    let written = 0;
    for (const [key, { organizationId, userId, email, since, until }] of this.changed) {
      if (written >= maxAggregates) return false;
      this.writeMembership.run(organizationId, userId, email, since, until);
      if (this.startsEmpty) this.written.add(key);
      this.changed.delete(key);
      this.changedOfUser.get(userId)?.delete(key);
      written += 1;
    }
    this.changedOfUser = new Map();
    return this.events.flush(maxAggregates - written);
  }

  discard(): void {
    this.changed = new Map();
    this.changedOfUser = new Map();
    this.events.discard();
  }

  forget(): void {
    if (this.remembered > 0) throw new Error('forget() with unflushed member security rows');
  }

  /**
   * The person's address gives way to their pseudonym in every row (secure_delete overwrites the old bytes); a
   * membership ends.
   */
  private erase(organizationId: string, userId: string, position: bigint): void {
    this.flush();
    const name = erasedMemberName(organizationId, userId);
    this.eraseMembership.run(name, position, organizationId, userId);
    this.eraseEvents.run(name, organizationId, userId);
  }

  private membership(organizationId: string, userId: string): Membership | undefined {
    const key = `${organizationId} ${userId}`;
    const changed = this.changed.get(key);
    if (changed !== undefined || (this.startsEmpty && !this.written.has(key))) return changed;
    const row = this.selectMembership.get(organizationId, userId);
    return row === undefined ? undefined : asMembership(row);
  }

  private membershipsOf(userId: string): Membership[] {
    const changed = [...(this.changedOfUser.get(userId) ?? [])].map((key) => this.changed.get(key) as Membership);
    const stored = this.selectMembershipsOf.all(userId).map(asMembership);
    return [...changed, ...stored.filter((row) => !this.changed.has(`${row.organizationId} ${userId}`))];
  }

  private change(membership: Membership): void {
    const key = `${membership.organizationId} ${membership.userId}`;
    this.changed.set(key, membership);
    const ofUser = this.changedOfUser.get(membership.userId) ?? new Set<string>();
    ofUser.add(key);
    this.changedOfUser.set(membership.userId, ofUser);
  }
}
