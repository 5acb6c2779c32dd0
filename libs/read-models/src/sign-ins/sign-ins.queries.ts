import type { QueryCache } from '../query-cache.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { firstSignInsTable } from './sign-ins.tables.js';

export class SignInQueries {
  private readonly selectSignedIn;

  constructor(
    db: ReadModelDatabase,
    /** Only on a connection nothing writes through. */
    private readonly cache?: QueryCache,
  ) {
    db.exec(firstSignInsTable.create(firstSignInsTable.name));
    this.selectSignedIn = db.prepare<[string], { user_id: string }>(
      `SELECT user_id FROM ${firstSignInsTable.name} WHERE user_id IN (SELECT value FROM json_each(?))`,
    );
  }

  signedInOnce(userIds: readonly string[]): ReadonlySet<string> {
    if (userIds.length === 0) return new Set();
    const query = () => new Set(this.selectSignedIn.all(JSON.stringify(userIds)).map((row) => row.user_id));
    return this.cache === undefined ? query() : this.cache.get(`signed in ${userIds.join(' ')}`, query);
  }
}
