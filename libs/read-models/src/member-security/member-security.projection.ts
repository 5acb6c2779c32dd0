// Members' sign-in security (docs/console.md, History): the two-step sign-in events of each organization's
// members, listed for the organization while the person is its member. Membership comes from the organizations'
// own events, in the log's order, so a rebuild gives the same rows.
import { isListedSecondFactorEvent, organizationStreamPrefix, userStreamPrefix } from '#domain';
import type { LogEvent } from '#event-store';
import { physicalName, type Projection, type ProjectionWriter, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { memberSecurityEventsTable, securityMembershipsTable } from './member-security.tables.js';

export const memberSecurityProjectionName = 'member-security';

const isMembershipEvent = (event: LogEvent) => (event.type === 'MemberAdded' || event.type === 'MemberRemoved') && event.streamId.startsWith(organizationStreamPrefix);

export function memberSecurityProjection(): Projection<never> {
  return {
    name: memberSecurityProjectionName,
    parts: [],
    version: 1,
    tables: [securityMembershipsTable, memberSecurityEventsTable],
    handles: (event) => isMembershipEvent(event) || (event.streamId.startsWith(userStreamPrefix) && isListedSecondFactorEvent(event.type, event.data)),
    writer: (db, tables) => new MemberSecurityWriter(db, tables),
  };
}

/** Writes as it applies, inside the runner's transaction: the events are few, and each reads what the one before wrote. */
class MemberSecurityWriter implements ProjectionWriter<never> {
  private readonly addMember;
  private readonly removeMember;
  private readonly organizationsOf;
  private readonly insertEvent;

  constructor(db: ReadModelDatabase, tables: TableNames) {
    const memberships = physicalName(tables, securityMembershipsTable.name);
    const events = physicalName(tables, memberSecurityEventsTable.name);
    // A membership begun or ended later than this event is newer: the event is one applied before (a replay).
    this.addMember = db.prepare<[string, string, string, bigint]>(
      `INSERT INTO ${memberships} (organization_id, user_id, email, since, until) VALUES (?, ?, ?, ?, NULL)
       ON CONFLICT (organization_id, user_id) DO UPDATE SET email = excluded.email, since = excluded.since, until = NULL
       WHERE since < excluded.since AND (until IS NULL OR until < excluded.since)`,
    );
    this.removeMember = db.prepare<[bigint, string, string, bigint, bigint]>(
      `UPDATE ${memberships} SET until = ? WHERE organization_id = ? AND user_id = ? AND since < ? AND (until IS NULL OR until < ?)`,
    );
    this.organizationsOf = db.prepare<[string, bigint, bigint], { organization_id: string; email: string }>(
      `SELECT organization_id, email FROM ${memberships} WHERE user_id = ? AND since < ? AND (until IS NULL OR until > ?)`,
    );
    // The same event applied again changes nothing (the key is the organization and the event's position).
    this.insertEvent = db.prepare<[string, bigint, string, string, bigint, string]>(
      `INSERT INTO ${events} (organization_id, position, user_id, email, revision, type) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
  }

  readonly remembered = 0;

  apply(event: LogEvent<never>): void {
    if (event.streamId.startsWith(organizationStreamPrefix)) {
      const organizationId = event.streamId.slice(organizationStreamPrefix.length);
      const { userId, email } = event.data as { userId: string; email?: string };
      if (event.type === 'MemberAdded') this.addMember.run(organizationId, userId, email ?? '', event.position);
      else this.removeMember.run(event.position, organizationId, userId, event.position, event.position);
      return;
    }
    const userId = event.streamId.slice(userStreamPrefix.length);
    for (const { organization_id: organizationId, email } of this.organizationsOf.all(userId, event.position, event.position)) {
      this.insertEvent.run(organizationId, event.position, userId, email, event.revision, event.type);
    }
  }

  flush(): boolean {
    return true;
  }

  discard(): void {}

  forget(): void {}
}
