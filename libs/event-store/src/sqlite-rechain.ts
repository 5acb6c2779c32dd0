// The embedded log's chain given again over bytes that changed in place: after sealing rewrote events
// (sqlite-log-rewrite.ts), and once when the chain's encoding changed (sqlite-migrations.ts, version 4). Always in the
// caller's write transaction, with the append-only trigger lifted by the caller.
import type Database from 'better-sqlite3';
import { CHAIN_GENESIS, chainLink } from './event-chain.js';
import { EVENT_ROW_COLUMNS, toStoredEvent, type EventRow } from './sqlite-event-row.js';

const PAGE = 1_000;

/**
 * Every hash from `from` to the head, linked again. Undefined when the event before `from` has no hash (a log
 * written before the chain keeps none); otherwise `from`. Stops at the first unchained event: a log being chained by
 * `store:chain` has no hash after it to give again.
 */
export function rechainFrom(db: Database.Database, from: bigint): bigint | undefined {
  const previousHash = db
    .prepare<[bigint], Buffer | null>('SELECT hash FROM events WHERE position < ? ORDER BY position DESC LIMIT 1')
    .pluck()
    .get(from);
  if (previousHash === null) return undefined;
  const rows = db
    .prepare<[bigint, number], [...EventRow, Buffer | null]>(
      `SELECT ${EVENT_ROW_COLUMNS}, hash FROM events WHERE position >= ? ORDER BY position LIMIT ?`,
    )
    .raw()
    .safeIntegers();
  const setHash = db.prepare('UPDATE events SET hash = ? WHERE position = ?');
  let previous = previousHash ?? CHAIN_GENESIS;
  // A page at a time: a connection runs no statement while another's rows are being iterated.
  for (let next = from, page = rows.all(next, PAGE); page.length > 0; page = rows.all(next, PAGE)) {
    for (const row of page) {
      if (row[8] === null) return from;
      const event = toStoredEvent(row);
      previous = chainLink(previous, event);
      setHash.run(previous, event.position);
      next = event.position + 1n;
    }
  }
  return from;
}

/** The append-only trigger's text, to lift it and put it back in one transaction. */
export function appendOnlyTrigger(db: Database.Database): string | undefined {
  return db
    .prepare<[], string>("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'events_are_never_changed'")
    .pluck()
    .get();
}
