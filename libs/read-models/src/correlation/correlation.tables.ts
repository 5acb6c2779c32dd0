import type { ProjectionTable } from '../projection.js';

/** Keyed by global position, so rows are appended in order. */
export const eventCorrelationsTable: ProjectionTable = {
  name: 'event_correlations',
  rowIs: 'event indexed by correlation id',
  rowsAre: 'events indexed by correlation id',
  key: ['position'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    position INTEGER PRIMARY KEY,
    correlation_id TEXT NOT NULL,
    stream_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    event_id TEXT NOT NULL
  )`,
  indexes: [
    'CREATE INDEX IF NOT EXISTS event_correlations_by_correlation ON event_correlations (correlation_id, position)',
  ],
};
