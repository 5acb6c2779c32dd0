// The organization read model's tables: one row per organization, one per membership.
import type { ProjectionTable } from '../projection.js';

/**
 * The folded domain state (JSON), with the revision and global position of the last event applied.
 * The view is derived from it when read (see organization.queries.ts).
 */
export const organizationsTable: ProjectionTable = {
  name: 'organizations',
  rowsAre: 'organizations',
  key: ['id'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    revision INTEGER NOT NULL,
    position INTEGER NOT NULL,
    state TEXT NOT NULL
  )`,
  indexes: [],
};

/** Who belongs where (sign-in's organization list, the Google 'account' check). */
export const membershipsTable: ProjectionTable = {
  name: 'memberships',
  rowsAre: 'memberships',
  key: ['organization_id', 'user_id'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    organization_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    PRIMARY KEY (organization_id, user_id)
  ) WITHOUT ROWID`,
  indexes: ['CREATE INDEX IF NOT EXISTS memberships_by_user ON memberships (user_id)'],
};
