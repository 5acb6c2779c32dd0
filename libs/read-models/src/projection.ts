import type { EnvelopePart, LogEvent } from '#event-store';
import type { ReadModelDatabase } from './read-model-database.js';

export type ProjectionTable = {
  name: string;
  /** For reports: 'organization', 'organizations'. */
  rowIs: string;
  rowsAre: string;
  key: readonly string[];
  /** For the live table or an aside one during a rebuild. */
  create: (table: string) => string;
  /** Built after a bulk load. */
  indexes: readonly string[];
};

export type TableNames = ReadonlyMap<string, string>;

/** Applying an event the model already holds is a no-op; a failing apply stops the projection (a poison event). */
export interface ProjectionWriter<P extends EnvelopePart = EnvelopePart> {
  apply(event: LogEvent<P>): void;
  /** True when no change remains. */
  flush(maxAggregates?: number): boolean;
  discard(): void;
  forget(): void;
  readonly remembered: number;
}

export type WriterOptions = {
  /** The writer need not look up what it has not written itself. */
  startsEmpty?: boolean;
};

/** `P`: the envelope parts it reads; a rebuild reads only the parts its projections name. */
export interface Projection<P extends EnvelopePart = EnvelopePart> {
  readonly name: string;
  /** A part left out here is missing in a rebuild. */
  readonly parts: readonly P[];
  readonly tables: readonly ProjectionTable[];
  /** Raise it when the tables change: files of another version build the model again. */
  readonly version: number;
  /**
   * Only for a model that folds a state per stream from that stream's events alone: a rebuild then reads
   * stream by stream and its states die young. A model of one row per event gains nothing, and costs a second read of
   * the log.
   */
  readonly streamPrefix?: string;
  /** Other events only move the checkpoint. */
  handles(event: LogEvent<P>): boolean;
  writer(db: ReadModelDatabase, tables: TableNames, options?: WriterOptions): ProjectionWriter<P>;
}

export function liveTableNames(projection: Projection): TableNames {
  return new Map(projection.tables.map((table) => [table.name, table.name]));
}

export function createTables(
  db: ReadModelDatabase,
  projection: Projection,
  tables: TableNames = liveTableNames(projection),
): void {
  for (const table of projection.tables) {
    db.exec(table.create(physicalName(tables, table.name)));
  }
}

export function createIndexes(db: ReadModelDatabase, projection: Projection): void {
  for (const table of projection.tables) {
    for (const index of table.indexes) db.exec(index);
  }
}

export function physicalName(tables: TableNames, name: string): string {
  const physical = tables.get(name);
  if (physical === undefined) throw new Error(`No table ${name} in this projection`);
  return physical;
}
