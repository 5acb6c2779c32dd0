// The correlation index (GET /audit/correlations/:id): every organization or billing event, by the
// correlation id in its metadata, so one request or one billing event can be traced across organizations.
import { organizationStreamPrefix } from '#domain';
import type { LogEvent } from '#event-store';
import { physicalName, type Projection, type ProjectionWriter, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { eventCorrelationsTable } from './correlation.tables.js';

export const correlationProjectionName = 'correlations';

/** Only auditable streams: identity streams (sessions, password resets) never show up in an audit view. */
export const correlatedStreamPrefixes: readonly string[] = [organizationStreamPrefix, 'billing-'];

type CorrelatedEvent = LogEvent<'id' | 'metadata'>;

const correlationIdOf = (event: CorrelatedEvent): string | undefined => {
  const value: unknown = event.metadata.correlationId;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export function correlationProjection(): Projection<'id' | 'metadata'> {
  return {
    name: correlationProjectionName,
    parts: ['id', 'metadata'],
    tables: [eventCorrelationsTable],
    version: 1,
    handles: (event) =>
      correlatedStreamPrefixes.some((prefix) => event.streamId.startsWith(prefix)) && correlationIdOf(event) !== undefined,
    writer: (db, tables) => new CorrelationWriter(db, tables),
  };
}

type CorrelationRow = [position: bigint, correlationId: string, streamId: string, revision: bigint, eventId: string];

class CorrelationWriter implements ProjectionWriter<'id' | 'metadata'> {
  private unflushed: CorrelationRow[] = [];
  /** How many of `unflushed` are written already. */
  private written = 0;
  private readonly insert;

  constructor(db: ReadModelDatabase, tables: TableNames) {
    const table = physicalName(tables, eventCorrelationsTable.name);
    // The key is the event's position: indexing an event a second time changes nothing.
    this.insert = db.prepare<CorrelationRow>(
      `INSERT INTO ${table} (position, correlation_id, stream_id, revision, event_id) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (position) DO NOTHING`,
    );
  }

  get remembered(): number {
    return this.unflushed.length - this.written;
  }

  apply(event: CorrelatedEvent): void {
    const correlationId = correlationIdOf(event);
    if (correlationId === undefined) return;
    this.unflushed.push([event.position, correlationId, event.streamId, event.revision, event.id]);
  }

  flush(maxAggregates = Number.POSITIVE_INFINITY): boolean {
    const end = Math.min(this.unflushed.length, this.written + maxAggregates);
    for (let index = this.written; index < end; index += 1) this.insert.run(...(this.unflushed[index] as CorrelationRow));
    this.written = end;
    if (end < this.unflushed.length) return false;
    this.discard();
    return true;
  }

  discard(): void {
    this.unflushed = [];
    this.written = 0;
  }

  forget(): void {
    if (this.remembered > 0) throw new Error('forget() with unflushed correlation rows');
  }
}
