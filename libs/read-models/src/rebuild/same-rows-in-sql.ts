// The stored rows compared with the replayed ones by SQLite itself: one join of each table on its primary key, where
// reading every row of both into JavaScript took most of a verification's comparing (8 s of rows at a million events,
// against 3 s).
import type { Projection } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';

/** A table's rows, in the stored model and in the replay. */
export type TableCount = { table: string; rowIs: string; rowsAre: string; stored: number; rebuilt: number };

export type ReplayedModel = { projection: Projection; checkpoint: bigint | undefined };

/**
 * The projections whose stored tables hold exactly the rows `replayed` holds, with their counts. The stored file is
 * opened again beside the replay, in a snapshot of its own; one whose checkpoints are not those the replay went to
 * says nothing, and any projection missing from the answer is compared row by row (which names each difference).
 */
export function sameRowsInSql(
  replayed: ReadModelDatabase,
  storedFile: string,
  models: readonly ReplayedModel[],
): Map<string, TableCount[]> {
  const same = new Map<string, TableCount[]>();
  replayed.prepare('ATTACH DATABASE ? AS stored').run(storedFile);
  replayed.exec('BEGIN');
  try {
    const positions = new Map(
      replayed
        .prepare<[], { projection: string; position: bigint | null }>(
          'SELECT projection, position FROM stored.projection_checkpoints',
        )
        .safeIntegers(true)
        .all()
        .map((row) => [row.projection, row.position ?? undefined]),
    );
    for (const { projection, checkpoint } of models) {
      if (positions.get(projection.name) !== checkpoint) continue;
      const tables = projection.tables.map((table) => ({ table, counts: sameTable(replayed, table.name) }));
      if (tables.every(({ counts }) => counts !== undefined))
        same.set(
          projection.name,
          tables.map(({ table, counts }) => ({
            table: table.name,
            rowIs: table.rowIs,
            rowsAre: table.rowsAre,
            ...(counts as { stored: number; rebuilt: number }),
          })),
        );
    }
    return same;
  } finally {
    replayed.exec('ROLLBACK');
    replayed.exec('DETACH DATABASE stored');
  }
}

/** Both tables' counts when they hold the same rows, value for value and type for type; else undefined. */
function sameTable(db: ReadModelDatabase, table: string): { stored: number; rebuilt: number } | undefined {
  const columnsOf = (schema: string) =>
    db
      .prepare<[string, string], { name: string; pk: number }>(
        'SELECT name, pk FROM pragma_table_info(?, ?) ORDER BY name',
      )
      .all(table, schema);
  const columns = columnsOf('main');
  const key = columns.filter((column) => column.pk > 0).map((column) => column.name);
  if (key.length === 0 || JSON.stringify(columnsOf('stored')) !== JSON.stringify(columns)) return undefined;
  // Every replayed row, read in key order, finds its stored row by the key: the rows are equal when every one of
  // them finds an equal one and both tables hold as many (a key is unique on both sides).
  const equal = columns
    .map(({ name }) => `s.${name} IS r.${name} COLLATE BINARY AND typeof(s.${name}) = typeof(r.${name})`)
    .join(' AND ');
  const counts = db
    .prepare<[], { stored: number; rebuilt: number; same: number }>(
      `SELECT (SELECT count(*) FROM stored.${table}) AS stored, (SELECT count(*) FROM main.${table}) AS rebuilt,
         (SELECT count(*) FROM main.${table} AS r NOT INDEXED CROSS JOIN stored.${table} AS s
            ON ${key.map((column) => `s.${column} = r.${column}`).join(' AND ')} WHERE ${equal}) AS same`,
    )
    .get();
  if (counts === undefined || counts.stored !== counts.rebuilt || counts.same !== counts.rebuilt) return undefined;
  return { stored: counts.stored, rebuilt: counts.rebuilt };
}
