import type { ProjectionTable } from '../projection.js';

/** The event itself stays in the store, the only record auditors trust. */
export const organizationEventsTable: ProjectionTable = {
  name: 'organization_events',
  rowIs: 'organization event indexed for the history',
  rowsAre: 'organization events indexed for the history',
  key: ['organization_id', 'revision'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    organization_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    position INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    actor TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    correlation_id TEXT,
    PRIMARY KEY (organization_id, revision)
  ) WITHOUT ROWID`,
  // A page reads about `limit` entries of an index, however long the stream and however rare the match.
  indexes: [
    'CREATE INDEX IF NOT EXISTS organization_events_by_type ON organization_events (organization_id, type, revision)',
    'CREATE INDEX IF NOT EXISTS organization_events_by_actor ON organization_events (organization_id, actor, revision)',
    'CREATE INDEX IF NOT EXISTS organization_events_by_time ON organization_events (organization_id, recorded_at, revision)',
  ],
};

/** Events that name a member or site by id only (MemberRemoved) are told with the name it had just before. */
export const organizationRecordNamesTable: ProjectionTable = {
  name: 'organization_record_names',
  rowIs: 'name a member or site had',
  rowsAre: 'names members and sites had',
  key: ['organization_id', 'kind', 'key', 'revision'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    organization_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    revision INTEGER NOT NULL,
    name TEXT NOT NULL,
    detail TEXT,
    PRIMARY KEY (organization_id, kind, key, revision)
  ) WITHOUT ROWID`,
  indexes: [],
};
