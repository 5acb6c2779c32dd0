import { organizationStreamPrefix } from '#domain';
import type { LogEvent } from '#event-store';
import { erasedMemberName } from '../erased-names.js';
import { PendingRows } from '../pending-rows.js';
import { physicalName, type Projection, type ProjectionWriter, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { organizationEventsTable, organizationRecordNamesTable } from './organization-history.tables.js';

export const organizationHistoryProjectionName = 'organization-history';

type IndexedEvent = LogEvent<'id' | 'metadata' | 'recordedAt'>;

export function organizationHistoryProjection(): Projection<'id' | 'metadata' | 'recordedAt'> {
  return {
    name: organizationHistoryProjectionName,
    parts: ['id', 'metadata', 'recordedAt'],
    version: 1,
    tables: [organizationEventsTable, organizationRecordNamesTable],
    handles: (event) => event.streamId.startsWith(organizationStreamPrefix),
    writer: (db, tables) => new OrganizationHistoryWriter(db, tables),
  };
}

type EventRow = [
  organizationId: string,
  revision: bigint,
  position: bigint,
  eventId: string,
  type: string,
  actor: string,
  recordedAt: string,
  correlationId: string | null,
];
type NameRow = [
  organizationId: string,
  kind: 'member' | 'site',
  key: string,
  revision: bigint,
  name: string,
  detail: string | null,
];

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function nameGiven(organizationId: string, event: IndexedEvent): NameRow | undefined {
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Record<string, unknown>;
  switch (event.type) {
    case 'MemberAdded':
    case 'MemberRoleChanged': {
      const userId = text(data.userId);
      const email = text(data.email);
      return userId === undefined || email === undefined
        ? undefined
        : [organizationId, 'member', userId, event.revision, email, null];
    }
    case 'SiteAdded': {
      const siteId = text(data.siteId);
      const name = text(data.name);
      return siteId === undefined || name === undefined
        ? undefined
        : [organizationId, 'site', siteId, event.revision, name, text(data.hostname) ?? null];
    }
    default:
      return undefined;
  }
}

class OrganizationHistoryWriter implements ProjectionWriter<'id' | 'metadata' | 'recordedAt'> {
  /** Names are few: written whole at each flush. */
  private readonly events;
  private readonly names;
  private readonly eraseNames;

  constructor(db: ReadModelDatabase, tables: TableNames) {
    const insertEvent = db.prepare<EventRow>(
      `INSERT INTO ${physicalName(tables, organizationEventsTable.name)}
         (organization_id, revision, position, event_id, type, actor, recorded_at, correlation_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (organization_id, revision) DO NOTHING`,
    );
    const insertName = db.prepare<NameRow>(
      `INSERT INTO ${physicalName(tables, organizationRecordNamesTable.name)} (organization_id, kind, key, revision, name, detail) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (organization_id, kind, key, revision) DO NOTHING`,
    );
    this.events = new PendingRows<EventRow>((row) => insertEvent.run(...row), byKey);
    this.names = new PendingRows<NameRow>((row) => insertName.run(...row), byKey);
    this.eraseNames = db.prepare<[string, string, string]>(
      `UPDATE ${physicalName(tables, organizationRecordNamesTable.name)} SET name = ? WHERE organization_id = ? AND kind = 'member' AND key = ?`,
    );
  }

  get remembered(): number {
    return this.events.size;
  }

  apply(event: IndexedEvent): void {
    const organizationId = event.streamId.slice(organizationStreamPrefix.length);
    this.events.push([
      organizationId,
      event.revision,
      event.position,
      event.id,
      event.type,
      text(event.metadata.actor) ?? 'unknown',
      event.recordedAt,
      text(event.metadata.correlationId) ?? null,
    ]);
    const name = nameGiven(organizationId, event);
    if (name !== undefined) this.names.push(name);
    if (event.type === 'MemberErased') this.erase(organizationId, text((event.data as { userId?: unknown }).userId));
  }

  /**
   * The person's address gives way to their pseudonym in every name the history kept (secure_delete overwrites the old
   * bytes).
   */
  private erase(organizationId: string, userId: string | undefined): void {
    if (userId === undefined) return;
    this.names.flush();
    this.eraseNames.run(erasedMemberName(organizationId, userId), organizationId, userId);
  }

  flush(maxAggregates?: number): boolean {
    this.names.flush();
    return this.events.flush(maxAggregates);
  }

  discard(): void {
    this.events.discard();
    this.names.discard();
  }

  forget(): void {
    if (this.remembered > 0) throw new Error('forget() with unflushed organization history rows');
  }
}

/** Close to SQLite's own order, which is all locality needs. */
function byKey(a: EventRow | NameRow, b: EventRow | NameRow): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  for (let column = 1; column < a.length; column += 1) {
    const x = a[column] as string | bigint;
    const y = b[column] as string | bigint;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
