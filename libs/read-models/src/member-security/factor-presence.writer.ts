// Who has a second factor, for the two-step card of an organization of thousands: one row per person, folded by
// the domain's own rule (evolveFactorPresence), so the list reads no user stream.
import {
  changesFactorPresence,
  evolveFactorPresence,
  noFactorPresence,
  userStreamPrefix,
  type FactorPresence,
} from '#domain';
import type { LogEvent } from '#event-store';
import { physicalName, type ProjectionWriter, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { memberSecondFactorsTable } from './member-security.tables.js';

type Presence = { presence: FactorPresence; position: bigint };
/** Safe integers: every column reads as a bigint. */
type PresenceRow = { authenticator_app: bigint; passkeys: bigint; position: bigint };

export const isFactorPresenceEvent = (event: LogEvent): boolean =>
  event.streamId.startsWith(userStreamPrefix) && changesFactorPresence(event.type);

export class FactorPresenceWriter implements ProjectionWriter {
  /** By user id. */
  private changed = new Map<string, Presence>();
  private readonly select;
  private readonly upsert;

  constructor(db: ReadModelDatabase, tables: TableNames) {
    const table = physicalName(tables, memberSecondFactorsTable.name);
    this.select = db
      .prepare<[string], PresenceRow>(`SELECT authenticator_app, passkeys, position FROM ${table} WHERE user_id = ?`)
      .safeIntegers(true);
    this.upsert = db.prepare<[string, number, number, bigint]>(
      `INSERT INTO ${table} (user_id, authenticator_app, passkeys, position) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET authenticator_app = excluded.authenticator_app, passkeys = excluded.passkeys, position = excluded.position`,
    );
  }

  get remembered(): number {
    return this.changed.size;
  }

  apply(event: LogEvent): void {
    if (!isFactorPresenceEvent(event)) return;
    const userId = event.streamId.slice(userStreamPrefix.length);
    const current = this.current(userId);
    if (current !== undefined && current.position >= event.position) return;
    this.changed.set(userId, {
      presence: evolveFactorPresence(current?.presence ?? noFactorPresence, event),
      position: event.position,
    });
  }

  flush(maxAggregates = Number.POSITIVE_INFINITY): boolean {
    let written = 0;
    for (const [userId, { presence, position }] of this.changed) {
      if (written >= maxAggregates) return false;
      this.upsert.run(userId, presence.authenticatorApp ? 1 : 0, presence.passkeys, position);
      this.changed.delete(userId);
      written += 1;
    }
    return true;
  }

  discard(): void {
    this.changed = new Map();
  }

  forget(): void {
    if (this.remembered > 0) throw new Error('forget() with unflushed second factors');
  }

  private current(userId: string): Presence | undefined {
    const changed = this.changed.get(userId);
    if (changed !== undefined) return changed;
    const row = this.select.get(userId);
    if (row === undefined) return undefined;
    return {
      presence: { authenticatorApp: row.authenticator_app !== 0n, passkeys: Number(row.passkeys) },
      position: row.position,
    };
  }
}
