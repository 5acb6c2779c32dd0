// The query connection never writes, so its `PRAGMA data_version` moves with every commit, whoever made it:
// no answer is served after a commit that could change it, and read-your-writes sees the commit that applied P.
import type { ReadModelDatabase } from './read-model-database.js';

/** A bound on memory when many organizations are read between two commits. */
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

  /** Answers are shared between callers: they must be immutable. */
  get<T>(key: string, compute: () => T): T {
    const version = this.dataVersion();
    if (version !== this.version) {
      // A commit between this check and compute() makes the answer newer than `version`, never older.
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

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
