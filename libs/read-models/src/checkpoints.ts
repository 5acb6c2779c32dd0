// Committed with the model's rows; the runner's state is here so that every process (API, CLI) can report it.
import type { ReadModelDatabase } from './read-model-database.js';

export type ProjectionState = 'stopped' | 'catching-up' | 'live' | 'failed';

export type ProjectionFailure = {
  message: string;
  position: bigint;
  eventId: string;
  eventType: string;
  streamId: string;
};

export type Checkpoint = {
  projection: string;
  position: bigint | undefined;
  /** A runner that sees it change resumes from the new checkpoint. */
  generation: bigint;
  state: ProjectionState;
  failure: ProjectionFailure | undefined;
  updatedAt: string;
};

type CheckpointRow = {
  projection: string;
  position: bigint | null;
  generation: bigint;
  state: ProjectionState;
  failure: string | null;
  updated_at: string;
};

const checkpointsTable = `CREATE TABLE IF NOT EXISTS projection_checkpoints (
  projection TEXT PRIMARY KEY,
  position INTEGER,
  generation INTEGER NOT NULL,
  state TEXT NOT NULL,
  failure TEXT,
  updated_at TEXT NOT NULL
)`;

/** A position means nothing against another store. */
const sourceTable = `CREATE TABLE IF NOT EXISTS read_model_source (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  store_id TEXT NOT NULL,
  recorded_at TEXT NOT NULL
)`;

const versionsTable = `CREATE TABLE IF NOT EXISTS read_model_versions (
  projection TEXT PRIMARY KEY,
  version INTEGER NOT NULL
)`;

export class Checkpoints {
  private readonly selectSource;
  private readonly upsertSource;
  private readonly selectOne;
  private readonly selectAll;
  private readonly insert;
  private readonly updatePosition;
  private readonly updateState;
  private readonly replace;
  private readonly selectVersion;
  private readonly upsertVersion;

  constructor(private readonly db: ReadModelDatabase) {
    db.exec(checkpointsTable);
    db.exec(sourceTable);
    db.exec(versionsTable);
    this.selectVersion = db
      .prepare<[string], number>('SELECT version FROM read_model_versions WHERE projection = ?')
      .pluck();
    this.upsertVersion = db.prepare(
      'INSERT INTO read_model_versions (projection, version) VALUES (?, ?) ON CONFLICT (projection) DO UPDATE SET version = excluded.version',
    );
    this.selectSource = db.prepare<[], string>('SELECT store_id FROM read_model_source WHERE id = 1').pluck();
    this.upsertSource = db.prepare(
      'INSERT INTO read_model_source (id, store_id, recorded_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET store_id = excluded.store_id, recorded_at = excluded.recorded_at',
    );
    this.selectOne = db
      .prepare<[string], CheckpointRow>('SELECT * FROM projection_checkpoints WHERE projection = ?')
      .safeIntegers(true);
    this.selectAll = db
      .prepare<[], CheckpointRow>('SELECT * FROM projection_checkpoints ORDER BY projection')
      .safeIntegers(true);
    this.insert = db.prepare(
      `INSERT INTO projection_checkpoints (projection, position, generation, state, failure, updated_at)
       VALUES (?, NULL, 1, 'stopped', NULL, ?) ON CONFLICT (projection) DO NOTHING`,
    );
    // max(): a second projector on the same file can never move a checkpoint backwards.
    this.updatePosition = db.prepare(
      'UPDATE projection_checkpoints SET position = max(coalesce(position, -1), ?), updated_at = ? WHERE projection = ?',
    );
    this.updateState = db.prepare(
      'UPDATE projection_checkpoints SET state = ?, failure = ?, updated_at = ? WHERE projection = ?',
    );
    this.replace = db.prepare(
      `UPDATE projection_checkpoints SET position = ?, generation = generation + 1, failure = NULL,
         state = CASE state WHEN 'failed' THEN 'stopped' ELSE state END, updated_at = ? WHERE projection = ?`,
    );
  }

  read(projection: string): Checkpoint {
    // Read first: the row exists after the first commit.
    let row = this.selectOne.get(projection);
    if (row === undefined) {
      this.insert.run(projection, now());
      row = this.selectOne.get(projection);
    }
    if (row === undefined) throw new Error(`No checkpoint row for ${projection}`);
    return toCheckpoint(row);
  }

  /** Read-only. */
  find(projection: string): Checkpoint | undefined {
    const row = this.selectOne.get(projection);
    return row === undefined ? undefined : toCheckpoint(row);
  }

  all(): Checkpoint[] {
    return this.selectAll.all().map(toCheckpoint);
  }

  advance(projection: string, position: bigint): void {
    this.updatePosition.run(position, now(), projection);
  }

  record(projection: string, state: ProjectionState, failure?: ProjectionFailure): void {
    this.updateState.run(
      state,
      failure === undefined ? null : JSON.stringify(failure, bigintAsString),
      now(),
      projection,
    );
  }

  storeId(): string | undefined {
    return this.selectSource.get();
  }

  recordStoreId(storeId: string): void {
    this.upsertSource.run(storeId, now());
  }

  modelVersion(projection: string): number | undefined {
    return this.selectVersion.get(projection);
  }

  recordModelVersion(projection: string, version: number): void {
    this.upsertVersion.run(projection, version);
  }

  replaceModel(projection: string, position: bigint | undefined): void {
    this.read(projection);
    this.replace.run(position ?? null, now(), projection);
  }
}

function toCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    projection: row.projection,
    position: row.position ?? undefined,
    generation: row.generation,
    state: row.state,
    failure: row.failure === null ? undefined : parseFailure(row.failure),
    updatedAt: row.updated_at,
  };
}

function parseFailure(text: string): ProjectionFailure {
  const stored = JSON.parse(text) as Omit<ProjectionFailure, 'position'> & { position: string };
  return { ...stored, position: BigInt(stored.position) };
}

function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

function now(): string {
  return new Date().toISOString();
}
