// Only the first sign-in counts: a row, once written, never changes.
import type { LogEvent } from '#event-store';
import { physicalName, type Projection, type ProjectionWriter, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { firstSignInsTable } from './sign-ins.tables.js';

export const signInsProjectionName = 'sign-ins';

// libs/identity's user streams (`user-<id>`, user/events.ts); not imported, so the read side does not load argon2.
const userStreamPrefix = 'user-';

export function signInsProjection(): Projection<'recordedAt'> {
  return {
    name: signInsProjectionName,
    parts: ['recordedAt'],
    version: 1,
    tables: [firstSignInsTable],
    handles: (event) => event.type === 'SignedIn' && event.streamId.startsWith(userStreamPrefix),
    writer: (db, tables) => new FirstSignInWriter(db, tables),
  };
}

type FirstSignInRow = [userId: string, signedInAt: string];

class FirstSignInWriter implements ProjectionWriter<'recordedAt'> {
  private unflushed = new Map<string, string>();
  private readonly insert;

  constructor(db: ReadModelDatabase, tables: TableNames) {
    this.insert = db.prepare<FirstSignInRow>(
      `INSERT INTO ${physicalName(tables, firstSignInsTable.name)} (user_id, signed_in_at) VALUES (?, ?) ON CONFLICT (user_id) DO NOTHING`,
    );
  }

  get remembered(): number {
    return this.unflushed.size;
  }

  apply(event: LogEvent<'recordedAt'>): void {
    const userId = event.streamId.slice(userStreamPrefix.length);
    if (!this.unflushed.has(userId)) this.unflushed.set(userId, event.recordedAt);
  }

  flush(maxAggregates = Number.POSITIVE_INFINITY): boolean {
    let written = 0;
    for (const [userId, signedInAt] of this.unflushed) {
      if (written >= maxAggregates) return false;
      this.insert.run(userId, signedInAt);
      this.unflushed.delete(userId);
      written += 1;
    }
    return true;
  }

  discard(): void {
    this.unflushed = new Map();
  }

  forget(): void {
    if (this.remembered > 0) throw new Error('forget() with unflushed sign-ins');
  }
}
