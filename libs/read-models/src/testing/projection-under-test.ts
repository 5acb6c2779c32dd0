// A projection's own tests: its tables and indexes in a private in-memory database, opened before each
// test and closed after it, and `commit`, what the runner does with a batch of events (its writer applies
// those the projection handles in one transaction, flushes, and forgets what it remembered).
import { afterEach, beforeEach } from '@jest/globals';
import type { EnvelopePart, RecordedEvent } from '#event-store';
import { createIndexes, createTables, liveTableNames, type Projection, type ProjectionWriter } from '../projection.js';
import { openReadModelDatabase, type ReadModelDatabase } from '../read-model-database.js';

export type ProjectionUnderTest<P extends EnvelopePart, Queries> = {
  readonly db: ReadModelDatabase;
  readonly writer: ProjectionWriter<P>;
  readonly queries: Queries;
  commit(events: readonly RecordedEvent[]): void;
};

export function projectionUnderTest<P extends EnvelopePart, Queries>(
  projection: Projection<P>,
  queriesOf: (db: ReadModelDatabase) => Queries,
): ProjectionUnderTest<P, Queries> {
  let current: { db: ReadModelDatabase; writer: ProjectionWriter<P>; queries: Queries } | undefined;
  const opened = () => {
    if (current === undefined) throw new Error('A projection under test is used outside a test.');
    return current;
  };

  beforeEach(() => {
    const db = openReadModelDatabase(':memory:');
    createTables(db, projection);
    createIndexes(db, projection);
    current = { db, writer: projection.writer(db, liveTableNames(projection)), queries: queriesOf(db) };
  });

  afterEach(() => {
    current?.db.close();
    current = undefined;
  });

  return {
    get db() {
      return opened().db;
    },
    get writer() {
      return opened().writer;
    },
    get queries() {
      return opened().queries;
    },
    commit(events) {
      const { db, writer } = opened();
      db.transaction(() => {
        for (const event of events) if (projection.handles(event)) writer.apply(event);
        writer.flush();
      })();
      writer.forget();
    },
  };
}
