// A large, realistic organization event log written straight into an embedded store's file (its own
// schema, transactions of 100,000 rows): what the benches catch up on, rebuild or scan. Chained as the store chains
// its appends (docs/history.md), so that what a bench appends after it is chained too, as in production.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CHAIN_GENESIS, chainLink, openEventStore } from '../../dist/libs/event-store/src/index.js';
import { organizationStory as story } from './organization-story.mjs';

/**
 * `eventCount` events across `organizationCount` organizations into DATA_DIR/events.sqlite (created
 * with the store's schema when missing). Organizations interleave as badly as possible: every
 * organization's first event, then every second one, and so on; each event has its own correlation id.
 */
export async function generateEventLog(dataDir, eventCount, organizationCount) {
  await (await openEventStore({ dataDir })).close();
  const db = new Database(path.join(dataDir, 'events.sqlite'));
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    `INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const recordedAt = new Date().toISOString();
  const insertMany = db.transaction((rows) => {
    for (const row of rows) insert.run(...row);
  });
  let rows = [];
  let written = 0;
  let previous = CHAIN_GENESIS;
  for (let step = 0; written < eventCount; step += 1) {
    for (let i = 0; i < organizationCount && written < eventCount; i += 1) {
      const [type, data] = story[step % story.length](i);
      const correlationId = randomUUID();
      const metadata = JSON.stringify({
        actor: 'billing',
        correlationId,
        causationId: correlationId,
        commandType: type,
      });
      const event = {
        position: BigInt(written + 1),
        streamId: `organization-org-${i}`,
        revision: BigInt(step),
        id: randomUUID(),
        type,
        data: JSON.stringify(data),
        metadata,
        recordedAt,
      };
      previous = chainLink(previous, event);
      const { position, streamId, revision, id } = event;
      rows.push([position, streamId, revision, id, type, event.data, metadata, recordedAt, previous]);
      written += 1;
      if (rows.length === 100_000) {
        insertMany(rows);
        rows = [];
      }
    }
  }
  insertMany(rows);
  db.close();
}
