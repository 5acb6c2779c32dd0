// The organization history index: what the audit explorer filters and pages on, one row per event.
import type { ProjectionTable } from '../projection.js';

/**
 * One row per organization event: where it is (revision, position, event id) and what auditors filter
 * on (type, actor, time). The event itself stays in the store, the only record auditors trust.
 * Keyed by (organization, revision): newest-first and oldest-first pages are ranges of the key.
 */
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
  // A filter on type or actor is a range of its index in revision order: a page reads about `limit`
  // entries, however long the stream and however rare the match. Time ranges use the time index.
  indexes: [
    'CREATE INDEX IF NOT EXISTS organization_events_by_type ON organization_events (organization_id, type, revision)',
    'CREATE INDEX IF NOT EXISTS organization_events_by_actor ON organization_events (organization_id, actor, revision)',
    'CREATE INDEX IF NOT EXISTS organization_events_by_time ON organization_events (organization_id, recorded_at, revision)',
  ],
};

/**
 * The names an organization's record gave a member (e-mail) or a site (name and hostname), from the
 * revision that gave them: events that name them by id only (MemberRemoved, SiteRemoved, a user as
 * actor) are told in words with the name they had just before.
 */
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
