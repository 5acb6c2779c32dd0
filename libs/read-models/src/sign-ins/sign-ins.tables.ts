// The console shows members as "invited" until they have signed in once.
import type { ProjectionTable } from '../projection.js';

export const firstSignInsTable: ProjectionTable = {
  name: 'first_sign_ins',
  rowIs: 'user who has signed in',
  rowsAre: 'users who have signed in',
  key: ['user_id'],
  create: (table) => `CREATE TABLE IF NOT EXISTS ${table} (
    user_id TEXT PRIMARY KEY,
    signed_in_at TEXT NOT NULL
  )`,
  indexes: [],
};
