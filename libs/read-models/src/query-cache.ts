// Answers of the hottest read-model queries (GET /organizations/:id), kept until the read-model
// database changes. The queries run on a connection of their own, which never writes: any commit,
// by this process's projector, a rebuild's swap or a projector in another process, is another
// connection's, and SQLite's `PRAGMA data_version` on the query connection changes with it. So an
// answer is never served after a commit that could change it, whichever code path wrote, and a
// read after `?minPosition=P` (read-your-writes) sees the commit that applied P.
import type { ReadModelDatabase } from './read-model-database.js';

/** Entries kept for one version of the database: a bound on memory when many organizations are read between two commits. */
const defaultMaxEntries = 10_000;

export class QueryCache {
  private readonly dataVersion: () => number;
  private version: number | undefined;
  private readonly entries = new Map<string, unknown>();

  /** `db` must be a connection that nothing writes through (see the file's comment). */
  constructor(
    db: ReadModelDatabase,
    private readonly maxEntries = defaultMaxEntries,
  ) {
    const statement = db.prepare('PRAGMA data_version').pluck();
    this.dataVersion = () => statement.get() as number;
  }

  /**
   * The answer `compute` gave for `key` since the last commit, or its answer now. Answers are shared
   * between callers: they must be treated as immutable (the queries freeze what they return).
   */
  get<T>(key: string, compute: () => T): T {
    const version = this.dataVersion();
    if (version !== this.version) {
      // A commit since: every answer may have changed. (A commit between this check and compute()
      // makes the answer newer than `version`, never older; the next call sees the version move.)
      this.entries.clear();
      this.version = version;
    }
    if (this.entries.has(key)) return this.entries.get(key) as T;
    const value = compute();
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
    return value;
  }
}

/** Freezes an answer and everything in it, so that no caller can change what the next one is given. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
