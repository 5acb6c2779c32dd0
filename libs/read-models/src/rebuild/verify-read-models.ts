// Inside one read transaction, so the projector may keep running.
import type { EventStore } from '#event-store';
import { Checkpoints } from '../checkpoints.js';
import { createTables, liveTableNames, type Projection, type ProjectionTable } from '../projection.js';
import { openReadModelDatabase, type ReadModelDatabase } from '../read-model-database.js';
import { jsonDifferences } from './json-differences.js';
import { replay, type ReplayProgress, type ReplayTarget } from './replay.js';

export type Drift = { table: string; key: string; differences: string[] };

export type TableCount = { table: string; rowIs: string; rowsAre: string; stored: number; rebuilt: number };

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
  const { db, projections } = options;
  const checkpoints = new Checkpoints(db);
  for (const projection of projections) createTables(db, projection);
  const memory = openReadModelDatabase(':memory:');
  // One snapshot: the stored rows and the checkpoints they were committed with.
  db.exec('BEGIN');
  try {
    const stored = projections.map((projection) => ({
      projection,
      checkpoint: checkpoints.find(projection.name)?.position,
    }));
    const targets: ReplayTarget[] = [];
    for (const { projection, checkpoint } of stored) {
      createTables(memory, projection);
      if (checkpoint !== undefined)
        targets.push({ projection, tables: liveTableNames(projection), until: checkpoint, startsEmpty: true });
    }
    const until = targets.map((target) => target.until ?? 0n);
    if (until.length > 0) {
      await replay({
        db: memory,
        store: options.store,
        targets,
        toPosition: until.reduce((top, position) => (position > top ? position : top)),
        memoryBudget: Number.POSITIVE_INFINITY,
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      });
    }
    return stored.map(({ projection, checkpoint }) => compareProjection(projection, checkpoint, db, memory));
  } finally {
    db.exec('ROLLBACK');
    memory.close();
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
  const select = `SELECT * FROM ${table.name} ORDER BY ${table.key.join(', ')}`;
  const storedRows = stored.prepare<[], Row>(select).safeIntegers(true).iterate();
  const rebuiltRows = rebuilt.prepare<[], Row>(select).safeIntegers(true).iterate();
  const drift: Drift[] = [];
  const counted = { stored: 0, rebuilt: 0 };
  let left = storedRows.next();
  let right = rebuiltRows.next();
  while (!left.done || !right.done) {
    const order = left.done ? 1 : right.done ? -1 : compareKeys(left.value, right.value, table.key);
    if (order < 0 && !left.done) {
      drift.push({
        table: table.name,
        key: keyOf(left.value, table.key),
        differences: ['in the stored model only (a rebuild has no such row)'],
      });
      counted.stored += 1;
      left = storedRows.next();
    } else if (order > 0 && !right.done) {
      drift.push({
        table: table.name,
        key: keyOf(right.value, table.key),
        differences: ['missing from the stored model'],
      });
      counted.rebuilt += 1;
      right = rebuiltRows.next();
    } else if (!left.done && !right.done) {
      const differences = rowDifferences(left.value, right.value);
      if (differences.length > 0) drift.push({ table: table.name, key: keyOf(left.value, table.key), differences });
      counted.stored += 1;
      counted.rebuilt += 1;
      left = storedRows.next();
      right = rebuiltRows.next();
    }
  }
  return { ...counted, drift };
}

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

/** SQLite orders TEXT by its UTF-8 bytes: compare the same way. */
function compareKeys(a: Row, b: Row, key: readonly string[]): number {
  for (const column of key) {
    const order = Buffer.compare(Buffer.from(String(a[column])), Buffer.from(String(b[column])));
    if (order !== 0) return order;
  }
  return 0;
}

function keyOf(row: Row, key: readonly string[]): string {
  return key.map((column) => String(row[column])).join('/');
}
