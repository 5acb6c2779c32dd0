// A restore under way into PostgreSQL, marked in the database (migration 7 of postgres-schema.ts): nodes share nothing
// but the store, so a mark in one node's DATA_DIR would keep only that node from serving it. The driver is loaded only
// when a mark is asked for, as the adapter is.
import type pg from 'pg';

/** One statement on a connection of its own, bounded. */
async function onPostgres<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const { default: driver } = await import('pg');
  const client = new driver.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: 5_000,
    query_timeout: 10_000,
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The mark's text, or undefined when no restore is under way in that database. */
export function postgresRestoreMark(databaseUrl: string): Promise<string | undefined> {
  return onPostgres(databaseUrl, async (client) => {
    // A database no Chorus has opened yet has no such table, and no restore under way.
    const { rows: tables } = await client.query<{ present: boolean }>(
      "SELECT to_regclass('store_restore') IS NOT NULL AS present",
    );
    if (tables[0]?.present !== true) return undefined;
    const { rows } = await client.query<{ marker: string }>('SELECT marker::text AS marker FROM store_restore');
    return rows[0]?.marker ?? undefined;
  });
}

/** Marks (or marks again) a restore under way; committed before it returns. The schema is migrated by then. */
export async function markPostgresRestore(databaseUrl: string, marker: string): Promise<void> {
  await onPostgres(databaseUrl, (client) =>
    client.query(
      'INSERT INTO store_restore (marker) VALUES ($1::jsonb) ON CONFLICT (only_row) DO UPDATE SET marker = EXCLUDED.marker',
      [marker],
    ),
  );
}

export async function clearPostgresRestoreMark(databaseUrl: string): Promise<void> {
  await onPostgres(databaseUrl, (client) => client.query('DELETE FROM store_restore'));
}
