// A period is a calendar month in UTC, YYYY-MM.
import type { ProjectionTable } from '../projection.js';

export const trafficPeriodsTable: ProjectionTable = {
  name: 'traffic_periods',
  rowIs: 'organization and period with traffic reported',
  rowsAre: 'organizations and periods with traffic reported',
  key: ['organization_id', 'period'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    organization_id TEXT NOT NULL,
    period TEXT NOT NULL,
    total INTEGER NOT NULL,
    PRIMARY KEY (organization_id, period)
  )`,
  indexes: [],
};
