import type { ProjectionTable } from '../projection.js';

/** The members are rows of `memberships`; `member_count` says how many, so no read counts them. */
export const organizationsTable: ProjectionTable = {
  name: 'organizations',
  rowIs: 'organization',
  rowsAre: 'organizations',
  key: ['id'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    revision INTEGER NOT NULL,
    position INTEGER NOT NULL,
    state TEXT NOT NULL,
    member_count INTEGER NOT NULL
  )`,
  indexes: [],
};

/**
 * One row per member, so that changing one writes one row however many there are. `ordinal` keeps the fold's
 * order: the revision of the event that put the member where it is (a role change keeps its place).
 */
export const membershipsTable: ProjectionTable = {
  name: 'memberships',
  rowIs: 'membership',
  rowsAre: 'memberships',
  key: ['organization_id', 'user_id'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    organization_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    member TEXT NOT NULL,
    PRIMARY KEY (organization_id, user_id)
  ) WITHOUT ROWID`,
  indexes: [
    'CREATE INDEX IF NOT EXISTS memberships_by_user ON memberships (user_id)',
    // A page of an organization's members is read in the fold's order, from where the last page ended.
    'CREATE INDEX IF NOT EXISTS memberships_in_order ON memberships (organization_id, ordinal, user_id)',
    // The answer without its member list names the owners (whom to ask), read without the rest.
    'CREATE INDEX IF NOT EXISTS memberships_by_role ON memberships (organization_id, role, ordinal)',
  ],
};

/**
 * One row per event of an organization: the usage after it, and after an event that may move the limits, the parts
 * of the state they are computed from (`LimitInputs`), so the History's usage over time reads rows, not the stream's events
 * (the limits are still computed when read: plan figures are code).
 */
export const organizationUsageTable: ProjectionTable = {
  name: 'organization_usage',
  rowIs: 'usage point',
  rowsAre: 'usage points',
  key: ['organization_id', 'revision'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    organization_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    recorded_at TEXT NOT NULL,
    type TEXT NOT NULL,
    users INTEGER NOT NULL,
    content_sections INTEGER NOT NULL,
    limits_state TEXT,
    PRIMARY KEY (organization_id, revision)
  ) WITHOUT ROWID`,
  indexes: [],
};

// 4: organization_usage.
export const organizationModelVersion = 4;
