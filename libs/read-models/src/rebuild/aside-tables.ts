// Where a rebuild builds a model before swapping it in: tables of the same file, named aside.
import type { Projection, TableNames } from '../projection.js';

/** Aside tables are the live ones' names with this suffix. */
export const asideSuffix = '__rebuild';

export function asideTableNames(projection: Projection): TableNames {
  return new Map(projection.tables.map((table) => [table.name, `${table.name}${asideSuffix}`]));
}
