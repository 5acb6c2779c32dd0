// Members' sign-in security, for their organizations' auditors: who is a member now (from the organizations'
// MemberAdded / MemberRemoved), and the two-step sign-in events of their user streams recorded while they were.
import type { ProjectionTable } from '../projection.js';

/**
 * A person's latest membership of an organization, from the position of its MemberAdded (`since`) to that of its
 * MemberRemoved (`until`, null while a member): events are listed for positions between them, so applying any
 * event again, in any order, changes nothing.
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

/** One row per organization and event: where the event is in the store (its stream and revision), and whose it is. */
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
    revision INTEGER NOT NULL,
    type TEXT NOT NULL,
    PRIMARY KEY (organization_id, position)
  ) WITHOUT ROWID`,
  indexes: [],
};
