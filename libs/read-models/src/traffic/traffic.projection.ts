// An event carries the period's total after it, so a row only ever grows to it.
import { trafficStreamPrefix } from '#domain';
import type { LogEvent } from '#event-store';
import { PendingRows } from '../pending-rows.js';
import { physicalName, type Projection, type ProjectionWriter, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { trafficPeriodsTable } from './traffic.tables.js';

export const trafficProjectionName = 'traffic';

export function trafficProjection(): Projection<never> {
  return {
    name: trafficProjectionName,
    parts: [],
    version: 1,
    tables: [trafficPeriodsTable],
    handles: (event) => event.type === 'TrafficReported' && event.streamId.startsWith(trafficStreamPrefix),
    writer: (db, tables) => new TrafficWriter(db, tables),
  };
}

type TrafficRow = [organizationId: string, period: string, total: number];

class TrafficWriter implements ProjectionWriter<never> {
  private readonly pending;

  constructor(db: ReadModelDatabase, tables: TableNames) {
    // max(): applying an event again, or an older one after a newer, never lowers a total.
    const upsert = db.prepare<TrafficRow>(
      `INSERT INTO ${physicalName(tables, trafficPeriodsTable.name)} (organization_id, period, total) VALUES (?, ?, ?)
       ON CONFLICT (organization_id, period) DO UPDATE SET total = max(total, excluded.total)`,
    );
    this.pending = new PendingRows<TrafficRow>((row) => upsert.run(...row));
  }

  get remembered(): number {
    return this.pending.size;
  }

  apply(event: LogEvent): void {
    const data = event.data as { organizationId?: unknown; period?: unknown; total?: unknown };
    if (typeof data.organizationId !== 'string' || typeof data.period !== 'string' || typeof data.total !== 'number')
      return;
    this.pending.push([data.organizationId, data.period, data.total]);
  }

  flush(maxAggregates?: number): boolean {
    return this.pending.flush(maxAggregates);
  }

  discard(): void {
    this.pending.discard();
  }

  forget(): void {
    if (this.remembered > 0) throw new Error('forget() with unflushed traffic totals');
  }
}
