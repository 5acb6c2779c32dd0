import type { ProjectionTable } from '../projection.js';

/**
 * Events are listed for positions between `since` and `until`, so applying any event again, in any order, changes
 * nothing.
 */
export const securityMembershipsTable: ProjectionTable = {
  name: 'security_memberships',
  rowIs: 'membership',
  rowsAre: 'memberships',
  key: ['organization_id', 'user_id'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    organization_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    email TEXT NOT NULL,
    since INTEGER NOT NULL,
    until INTEGER,
    PRIMARY KEY (organization_id, user_id)
  ) WITHOUT ROWID`,
  indexes: ['CREATE INDEX IF NOT EXISTS security_memberships_by_user ON security_memberships (user_id)'],
};

export const memberSecurityEventsTable: ProjectionTable = {
  name: 'member_security_events',
  rowIs: 'member security event',
  rowsAre: 'member security events',
  key: ['organization_id', 'position'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    organization_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    user_id TEXT NOT NULL,
    email TEXT NOT NULL,
    stream_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    type TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    listed INTEGER NOT NULL,
    PRIMARY KEY (organization_id, position)
  ) WITHOUT ROWID`,
  indexes: [],
};

/**
 * Whether each person has a second factor, not which: `position` is the last event applied, so an older one applied
 * again changes nothing.
 */
export const memberSecondFactorsTable: ProjectionTable = {
  name: 'member_second_factors',
  rowIs: "person's second-factor status",
  rowsAre: "people's second-factor statuses",
  key: ['user_id'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    user_id TEXT PRIMARY KEY,
    authenticator_app INTEGER NOT NULL,
    passkeys INTEGER NOT NULL,
    position INTEGER NOT NULL
  ) WITHOUT ROWID`,
  indexes: [],
};
