// Inside one read transaction, so the projector may keep running.
import type { EventStore } from '#event-store';
import { Checkpoints } from '../checkpoints.js';
import { createIndexes, createTables, liveTableNames, type Projection, type ProjectionTable } from '../projection.js';
import { openReadModelDatabase, type ReadModelDatabase } from '../read-model-database.js';
import { jsonDifferences } from './json-differences.js';
import { replay, type ReplayProgress, type ReplayTarget } from './replay.js';
import { sameRowsInSql, type ReplayedModel, type TableCount } from './same-rows-in-sql.js';

export type { TableCount } from './same-rows-in-sql.js';

export type Drift = { table: string; key: string; differences: string[] };

export type Verification = {
  projection: string;
  checkpoint: bigint | undefined;
  tables: TableCount[];
  drift: Drift[];
};

export type VerifyOptions = {
  db: ReadModelDatabase;
  store: EventStore;
  projections: readonly Projection[];
  onProgress?: (progress: ReplayProgress) => void;
};

type Row = Record<string, unknown>;

export async function verifyReadModels(options: VerifyOptions): Promise<Verification[]> {
  const replayed = await MemoryReplay.upTo({ store: options.store, projections: options.projections });
  return replayed.verify(options.db, options.onProgress === undefined ? {} : { onProgress: options.onProgress });
}

/**
 * A verification's replay of the log into memory, used once. It may be taken ahead up to a position (a restore takes
 * it in a thread of its own while it rebuilds the stored models); `verify` then replays only what follows that
 * position. Taken ahead, it holds the events as they read then: a person erased since reads otherwise, and the
 * caller then replays anew.
 */
export class MemoryReplay {
  private constructor(
    private readonly memory: ReadModelDatabase,
    private readonly store: EventStore,
    private readonly projections: readonly Projection[],
    private readonly position: bigint | undefined,
  ) {}

  static async upTo(options: {
    store: EventStore;
    projections: readonly Projection[];
    /** Inclusive; none: nothing is replayed until `verify`. */
    position?: bigint | undefined;
  }): Promise<MemoryReplay> {
    const memory = openReadModelDatabase(':memory:');
    try {
      for (const projection of options.projections) createTables(memory, projection);
      const { position } = options;
      if (position !== undefined) {
        const targets = options.projections.map((projection) => ({
          projection,
          tables: liveTableNames(projection),
          startsEmpty: true,
        }));
        await replay({
          db: memory,
          store: options.store,
          targets,
          toPosition: position,
          memoryBudget: Number.POSITIVE_INFINITY,
        });
      }
      return new MemoryReplay(memory, options.store, options.projections, position);
    } catch (error) {
      memory.close();
      throw error;
    }
  }

  /** Compares the stored models, as of their checkpoints, with the log replayed up to those checkpoints. */
  async verify(
    db: ReadModelDatabase,
    options: { onProgress?: (progress: ReplayProgress) => void } = {},
  ): Promise<Verification[]> {
    const { memory } = this;
    const checkpoints = new Checkpoints(db);
    for (const projection of this.projections) createTables(db, projection);
    // One snapshot: the stored rows and the checkpoints they were committed with.
    db.exec('BEGIN');
    try {
      const stored: ReplayedModel[] = this.projections.map((projection) => ({
        projection,
        checkpoint: checkpoints.find(projection.name)?.position,
      }));
      const ahead = this.position;
      // A model stored before the replay taken ahead, or empty, cannot be compared with it: it is replayed again.
      const again =
        ahead === undefined
          ? stored
          : stored.filter(({ checkpoint }) => checkpoint === undefined || checkpoint < ahead);
      const onward = stored.filter((model) => !again.includes(model));
      if (ahead !== undefined) {
        for (const { projection } of again) {
          for (const table of projection.tables) memory.exec(`DROP TABLE IF EXISTS ${table.name}`);
          createTables(memory, projection);
        }
      }
      // Those going on from the replay ahead read their rows back as a live projector does, by their indexes.
      for (const { projection, checkpoint } of onward)
        if (ahead !== undefined && checkpoint !== undefined && checkpoint > ahead) createIndexes(memory, projection);
      await this.replayTo(again, true, undefined, options.onProgress);
      await this.replayTo(onward, false, ahead, options.onProgress);
      // A stored model in a file is first compared by SQLite; what differs there, row by row, to name each difference.
      const same = db.memory ? new Map<string, TableCount[]>() : sameRowsInSql(memory, db.name, stored);
      return stored.map(({ projection, checkpoint }) => {
        const tables = same.get(projection.name);
        return tables === undefined
          ? compareProjection(projection, checkpoint, db, memory)
          : { projection: projection.name, checkpoint, tables, drift: [] };
      });
    } finally {
      db.exec('ROLLBACK');
      this.close();
    }
  }

  close(): void {
    if (this.memory.open) this.memory.close();
  }

  private async replayTo(
    models: readonly ReplayedModel[],
    startsEmpty: boolean,
    fromPosition: bigint | undefined,
    onProgress: ((progress: ReplayProgress) => void) | undefined,
  ): Promise<void> {
    const targets: ReplayTarget[] = [];
    for (const { projection, checkpoint } of models)
      if (checkpoint !== undefined)
        targets.push({ projection, tables: liveTableNames(projection), until: checkpoint, startsEmpty });
    if (targets.length === 0) return;
    const toPosition = targets.reduce((top, { until = 0n }) => (until > top ? until : top), 0n);
    if (fromPosition !== undefined && toPosition <= fromPosition) return;
    await replay({
      db: this.memory,
      store: this.store,
      targets,
      fromPosition,
      toPosition,
      memoryBudget: Number.POSITIVE_INFINITY,
      ...(onProgress === undefined ? {} : { onProgress }),
    });
  }
}

function compareProjection(
  projection: Projection,
  checkpoint: bigint | undefined,
  stored: ReadModelDatabase,
  rebuilt: ReadModelDatabase,
): Verification {
  const tables: TableCount[] = [];
  const drift: Drift[] = [];
  for (const table of projection.tables) {
    const compared = compareTable(table, stored, rebuilt);
    tables.push({
      table: table.name,
      rowIs: table.rowIs,
      rowsAre: table.rowsAre,
      stored: compared.stored,
      rebuilt: compared.rebuilt,
    });
    drift.push(...compared.drift);
  }
  return { projection: projection.name, checkpoint, tables, drift };
}

function compareTable(
  table: ProjectionTable,
  stored: ReadModelDatabase,
  rebuilt: ReadModelDatabase,
): { stored: number; rebuilt: number; drift: Drift[] } {
  // Rows as arrays in one column order: a row object per row was most of a verification's comparing.
  const select = (db: ReadModelDatabase) => {
    const columns = db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table.name}') ORDER BY name`)
      .all()
      .map((column) => column.name);
    const rows = db
      .prepare<[], unknown[]>(`SELECT ${columns.join(', ')} FROM ${table.name} ORDER BY ${table.key.join(', ')}`)
      .raw(true)
      .safeIntegers(true)
      .iterate();
    return { columns, rows };
  };
  const left = select(stored);
  const right = select(rebuilt);
  const sameColumns = left.columns.join() === right.columns.join();
  const keyAt = table.key.map((column) => left.columns.indexOf(column));
  const drift: Drift[] = [];
  const counted = { stored: 0, rebuilt: 0 };
  const keyOf = (row: readonly unknown[]) => keyAt.map((at) => String(row[at])).join('/');
  let a = left.rows.next();
  let b = right.rows.next();
  while (!a.done || !b.done) {
    const order = a.done ? 1 : b.done ? -1 : compareKeys(a.value, b.value, keyAt);
    if (order < 0 && !a.done) {
      drift.push({
        table: table.name,
        key: keyOf(a.value),
        differences: ['in the stored model only (a rebuild has no such row)'],
      });
      counted.stored += 1;
      a = left.rows.next();
    } else if (order > 0 && !b.done) {
      drift.push({ table: table.name, key: keyOf(b.value), differences: ['missing from the stored model'] });
      counted.rebuilt += 1;
      b = right.rows.next();
    } else if (!a.done && !b.done) {
      if (!sameColumns || a.value.some((value, at) => value !== (b.value as unknown[])[at])) {
        const differences = rowDifferences(rowOf(left.columns, a.value), rowOf(right.columns, b.value));
        if (differences.length > 0) drift.push({ table: table.name, key: keyOf(a.value), differences });
      }
      counted.stored += 1;
      counted.rebuilt += 1;
      a = left.rows.next();
      b = right.rows.next();
    }
  }
  return { ...counted, drift };
}

const rowOf = (columns: readonly string[], values: readonly unknown[]): Row =>
  Object.fromEntries(columns.map((column, at) => [column, values[at]]));

function rowDifferences(stored: Row, rebuilt: Row): string[] {
  const columns = Object.keys(stored);
  if (columns.every((column) => stored[column] === rebuilt[column])) return [];
  return [...new Set([...columns, ...Object.keys(rebuilt)])].flatMap((column) =>
    columnDifferences(column, stored, rebuilt),
  );
}

function columnDifferences(column: string, stored: Row, rebuilt: Row): string[] {
  const a = stored[column];
  const b = rebuilt[column];
  if (a === b) return [];
  if (typeof a === 'string' && typeof b === 'string' && isJsonText(a) && isJsonText(b)) {
    return jsonDifferences(JSON.parse(a), JSON.parse(b), column);
  }
  return jsonDifferences(a, b, column);
}

function isJsonText(text: string): boolean {
  return text.startsWith('{') || text.startsWith('[');
}

/** In SQLite's own order: integers by value, TEXT by its UTF-8 bytes (the key columns hold one kind each). */
function compareKeys(a: readonly unknown[], b: readonly unknown[], keyAt: readonly number[]): number {
  for (const at of keyAt) {
    const x = a[at];
    const y = b[at];
    if (x === y) continue;
    if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : 1;
    const order = Buffer.compare(Buffer.from(String(x)), Buffer.from(String(y)));
    if (order !== 0) return order;
  }
  return 0;
}
