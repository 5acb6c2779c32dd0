import { organizationStreamPrefix } from '#domain';
import type { LogEvent } from '#event-store';
import { physicalName, type Projection, type ProjectionWriter, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { eventCorrelationsTable } from './correlation.tables.js';
import { PendingRows } from '../pending-rows.js';

export const correlationProjectionName = 'correlations';

/** Identity streams (sessions, password resets) never show up in an audit view. */
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
      correlatedStreamPrefixes.some((prefix) => event.streamId.startsWith(prefix)) &&
      correlationIdOf(event) !== undefined,
    writer: (db, tables) => new CorrelationWriter(db, tables),
  };
}

type CorrelationRow = [position: bigint, correlationId: string, streamId: string, revision: bigint, eventId: string];

class CorrelationWriter implements ProjectionWriter<'id' | 'metadata'> {
  private readonly pending;

  constructor(db: ReadModelDatabase, tables: TableNames) {
    const table = physicalName(tables, eventCorrelationsTable.name);
    const insert = db.prepare<CorrelationRow>(
      `INSERT INTO ${table} (position, correlation_id, stream_id, revision, event_id) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (position) DO NOTHING`,
    );
    this.pending = new PendingRows<CorrelationRow>((row) => insert.run(...row));
  }

  get remembered(): number {
    return this.pending.size;
  }

  apply(event: CorrelatedEvent): void {
    const correlationId = correlationIdOf(event);
    if (correlationId === undefined) return;
    this.pending.push([event.position, correlationId, event.streamId, event.revision, event.id]);
  }

  flush(maxAggregates?: number): boolean {
    return this.pending.flush(maxAggregates);
  }

  discard(): void {
    this.pending.discard();
  }

  forget(): void {
    if (this.remembered > 0) throw new Error('forget() with unflushed correlation rows');
  }
}
