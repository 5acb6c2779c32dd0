import type { QueryCache } from '../query-cache.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { trafficPeriodsTable } from './traffic.tables.js';

export class TrafficQueries {
  private readonly selectTotal;

  constructor(
    db: ReadModelDatabase,
    /** Only on a connection nothing writes through. */
    private readonly cache?: QueryCache,
  ) {
    db.exec(trafficPeriodsTable.create(trafficPeriodsTable.name));
    this.selectTotal = db
      .prepare<[string, string], number>(
        `SELECT total FROM ${trafficPeriodsTable.name} WHERE organization_id = ? AND period = ?`,
      )
      .pluck();
  }

  total(organizationId: string, period: string): number {
    const query = () => this.selectTotal.get(organizationId, period) ?? 0;
    return this.cache === undefined ? query() : this.cache.get(`traffic ${organizationId} ${period}`, query);
  }
}
