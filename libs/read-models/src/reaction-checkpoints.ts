// Where each reaction (a subscription whose effects are mails and events, not rows) stands, in the read
// models' file beside their checkpoints. A reaction commits no rows with it, so each row names the store
// its position belongs to: a reaction whose row names another store starts again from that store's end.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openReadModelDatabase, type ReadModelDatabase } from './read-model-database.js';

export type ReactionCheckpoint = {
  /** EventStore.storeId of the store the position is in. */
  storeId: string;
  /** Every event the reaction owes something at or below it was handled; undefined: from the log's start. */
  position: bigint | undefined;
};

type ReactionRow = { store_id: string; position: bigint | null };

const reactionsTable = `CREATE TABLE IF NOT EXISTS reaction_checkpoints (
  reaction TEXT PRIMARY KEY,
  store_id TEXT NOT NULL,
  position INTEGER,
  updated_at TEXT NOT NULL
)`;

/** One connection of its own, so that a durable save can sync without making the projector's commits sync. */
export class ReactionCheckpoints {
  private readonly selectOne;
  private readonly upsert;

  private constructor(private readonly db: ReadModelDatabase, private readonly dataDir: string) {
    db.exec(reactionsTable);
    this.selectOne = db.prepare<[string], ReactionRow>('SELECT store_id, position FROM reaction_checkpoints WHERE reaction = ?').safeIntegers(true);
    this.upsert = db.prepare(
      `INSERT INTO reaction_checkpoints (reaction, store_id, position, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (reaction) DO UPDATE SET store_id = excluded.store_id, position = excluded.position, updated_at = excluded.updated_at`,
    );
  }

  static open(dataDir: string): ReactionCheckpoints {
    return new ReactionCheckpoints(openReadModelDatabase(dataDir), dataDir);
  }

  /** undefined: the reaction never ran against this file (nor left a checkpoint file of an earlier version). */
  read(reaction: string): ReactionCheckpoint | undefined {
    const row = this.selectOne.get(reaction);
    if (row !== undefined) return { storeId: row.store_id, position: row.position ?? undefined };
    return this.adoptFile(reaction);
  }

  /**
   * Durable: synced before it returns (where a reaction starts, and at shutdown). Otherwise a power cut may
   * lose it, which only means handling again what it covered: every reaction is idempotent.
   */
  save(reaction: string, checkpoint: ReactionCheckpoint, durable: boolean): void {
    if (durable) this.db.pragma('synchronous = FULL');
    try {
      this.upsert.run(reaction, checkpoint.storeId, checkpoint.position ?? null, new Date().toISOString());
    } finally {
      if (durable) this.db.pragma('synchronous = NORMAL');
    }
  }

  close(): void {
    this.db.close();
  }

  /** Earlier versions kept a reaction's checkpoint in `DATA_DIR/reactions/<name>.json`: taken over once, then removed. */
  private adoptFile(reaction: string): ReactionCheckpoint | undefined {
    const file = path.join(this.dataDir, 'reactions', `${reaction}.json`);
    if (!existsSync(file)) return undefined;
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { storeId?: unknown; position?: unknown };
    if (typeof parsed.storeId !== 'string' || (parsed.position !== null && typeof parsed.position !== 'string')) {
      throw new Error(`${file} is not a reaction checkpoint; remove it to start from the end of the event store (what was owed since it was written would not be sent)`);
    }
    const checkpoint = { storeId: parsed.storeId, position: parsed.position === null ? undefined : BigInt(parsed.position) };
    this.save(reaction, checkpoint, true);
    rmSync(file);
    return checkpoint;
  }
}
