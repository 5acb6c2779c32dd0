// A reaction commits no rows with its checkpoint, so each row names the store its position belongs to.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openReadModelDatabase, tableExists, type ReadModelDatabase } from './read-model-database.js';

export type ReactionCheckpoint = {
  storeId: string;
  /** Every event at or below it was handled. */
  position: bigint | undefined;
};

type ReactionRow = { store_id: string; position: bigint | null };

const reactionsTable = `CREATE TABLE IF NOT EXISTS reaction_checkpoints (
  reaction TEXT PRIMARY KEY,
  store_id TEXT NOT NULL,
  position INTEGER,
  updated_at TEXT NOT NULL
)`;

/**
 * A rebuild may hold the write lock for long: a save fails at once and is retried later, not stalling the event loop.
 */
const busyTimeoutMs = 100;

const prepareUpsert = (db: ReadModelDatabase) =>
  db.prepare<[string, string, bigint | null, string]>(
    `INSERT INTO reaction_checkpoints (reaction, store_id, position, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (reaction) DO UPDATE SET store_id = excluded.store_id, position = excluded.position, updated_at = excluded.updated_at`,
  );

/** One connection of its own, so that a durable save can sync without making the projector's commits sync. */
export class ReactionCheckpoints {
  private upsert: ReturnType<typeof prepareUpsert> | undefined;
  private readonly adoptedFiles = new Map<string, string>();

  private constructor(
    private readonly db: ReadModelDatabase,
    private readonly dataDir: string,
  ) {}

  static open(dataDir: string): ReactionCheckpoints {
    return new ReactionCheckpoints(openReadModelDatabase(dataDir, { busyTimeoutMs }), dataDir);
  }

  /** Reads only. */
  read(reaction: string): ReactionCheckpoint | undefined {
    const row = tableExists(this.db, 'reaction_checkpoints')
      ? this.db
          .prepare<[string], ReactionRow>('SELECT store_id, position FROM reaction_checkpoints WHERE reaction = ?')
          .safeIntegers(true)
          .get(reaction)
      : undefined;
    if (row !== undefined) return { storeId: row.store_id, position: row.position ?? undefined };
    return this.readFile(reaction);
  }

  /** Unless durable, a power cut may lose it: that only means handling it again, every reaction being idempotent. */
  save(reaction: string, checkpoint: ReactionCheckpoint, durable: boolean): void {
    if (durable) this.db.pragma('synchronous = FULL');
    try {
      if (this.upsert === undefined) {
        this.db.exec(reactionsTable);
        this.upsert = prepareUpsert(this.db);
      }
      this.upsert.run(reaction, checkpoint.storeId, checkpoint.position ?? null, new Date().toISOString());
    } finally {
      if (durable) this.db.pragma('synchronous = NORMAL');
    }
    const adopted = this.adoptedFiles.get(reaction);
    if (adopted !== undefined) {
      rmSync(adopted, { force: true });
      this.adoptedFiles.delete(reaction);
    }
  }

  /** False when another writer still held the file after `withinMs`. */
  async saveStart(reaction: string, checkpoint: ReactionCheckpoint, withinMs = 5_000): Promise<boolean> {
    const giveUpAt = Date.now() + withinMs;
    for (;;) {
      try {
        this.save(reaction, checkpoint, true);
        return true;
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
        if (Date.now() >= giveUpAt) return false;
      }
      await new Promise((resolve) => setTimeout(resolve, busyTimeoutMs));
    }
  }

  close(): void {
    this.db.close();
  }

  /** Earlier versions kept it in `DATA_DIR/reactions/<name>.json`, removed once the row is saved. */
  private readFile(reaction: string): ReactionCheckpoint | undefined {
    const file = path.join(this.dataDir, 'reactions', `${reaction}.json`);
    if (!existsSync(file)) return undefined;
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { storeId?: unknown; position?: unknown };
    if (typeof parsed.storeId !== 'string' || (parsed.position !== null && typeof parsed.position !== 'string')) {
      throw new Error(
        `${file} is not a reaction checkpoint; remove it to start from the end of the event store (what was owed since it was written would not be sent)`,
      );
    }
    this.adoptedFiles.set(reaction, file);
    return { storeId: parsed.storeId, position: parsed.position === null ? undefined : BigInt(parsed.position) };
  }
}
