// What a read model gives the runner, the rebuild and the verification: its tables and a writer.
import type { EnvelopePart, LogEvent } from '#event-store';
import type { ReadModelDatabase } from './read-model-database.js';

export type ProjectionTable = {
  /** The table's live name. */
  name: string;
  /** What one row is and what its rows are, for reports (projections:verify): 'organization', 'organizations'. */
  rowIs: string;
  rowsAre: string;
  /** Primary-key columns: rows are compared by them when verifying. */
  key: readonly string[];
  /** CREATE TABLE for the given physical name (the live one, or an aside one during a rebuild). */
  create: (table: string) => string;
  /** CREATE INDEX statements for the live table, built after a bulk load. */
  indexes: readonly string[];
};

/** Live table name -> the physical table a writer writes to. */
export type TableNames = ReadonlyMap<string, string>;

/**
 * Applies events in order inside the caller's transaction. Applying an event the model already
 * holds is a no-op. A failing apply throws: the runner stops the projection there (a poison event).
 */
export interface ProjectionWriter<P extends EnvelopePart = EnvelopePart> {
  apply(event: LogEvent<P>): void;
  /** Writes changes applied since the last flush, at most maxAggregates of them; true when none remain. */
  flush(maxAggregates?: number): boolean;
  /** Drops changes not yet flushed (the transaction rolled back) and anything remembered. */
  discard(): void;
  /** Forgets what it remembers between flushes, so the next apply reads the tables again. */
  forget(): void;
  /** How many aggregates it remembers (the rebuild flushes and forgets past a budget). */
  readonly remembered: number;
}

export type WriterOptions = {
  /**
   * The tables are empty to begin with (a rebuild's aside tables, verify's in-memory ones): the
   * writer need not look up what it has not written itself. For one replay from the first event.
   */
  startsEmpty?: boolean;
};

/**
 * A read model. `P`: the envelope parts (id, metadata, recordedAt) it reads besides an event's stream,
 * type, revision, position and data; a rebuild reads only the parts its projections name in `parts`.
 */
export interface Projection<P extends EnvelopePart = EnvelopePart> {
  readonly name: string;
  /** Every envelope part `handles` and the writer read (a part left out here is missing in a rebuild). */
  readonly parts: readonly P[];
  readonly tables: readonly ProjectionTable[];
  /** The tables' layout: raise it when they change, and files of another version build the model again (model-versions.ts). */
  readonly version: number;
  /**
   * Set when the model is per stream: `handles` takes exactly the streams starting with this prefix, and
   * what the model holds of a stream depends on that stream's events alone, in revision order (not on
   * other streams, nor on the order of streams in the log). A rebuild from the first event may then read
   * those streams one after another (EventStore.readLogByStream) instead of the log in position order.
   * Worth it for a model that folds a state per stream (its states then die young); a model of one row
   * per event gains nothing from it, and a rebuild of every model then reads the log twice.
   */
  readonly streamPrefix?: string;
  /** Whether the event changes this model; other events only move the checkpoint. */
  handles(event: LogEvent<P>): boolean;
  writer(db: ReadModelDatabase, tables: TableNames, options?: WriterOptions): ProjectionWriter<P>;
}

export function liveTableNames(projection: Projection): TableNames {
  return new Map(projection.tables.map((table) => [table.name, table.name]));
}

export function createTables(db: ReadModelDatabase, projection: Projection, tables: TableNames = liveTableNames(projection)): void {
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
