// The organization read model's tables: one row per organization, one per membership.
import type { ProjectionTable } from '../projection.js';

/**
 * The folded domain state (JSON) without its members, which are rows of `memberships`, with the
 * revision and global position of the last event applied. The view is derived from both when read
 * (see organization.queries.ts).
 */
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
    state TEXT NOT NULL
  )`,
  indexes: [],
};

/**
 * The members of the fold, one row each (`member`: the domain's Member as JSON), so that adding,
 * removing or changing one member writes one row however many there are. `ordinal` keeps the fold's
 * order: the revision of the event that put the member where it is (a role change keeps its place).
 * `role` is also who belongs where (sign-in's organization list, Google's 'account' check).
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
  indexes: ['CREATE INDEX IF NOT EXISTS memberships_by_user ON memberships (user_id)'],
};

/** The tables' layout: a file whose recorded version differs has its model built again (schema-versions.ts). */
export const organizationModelVersion = 2;
