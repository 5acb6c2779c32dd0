// What the runner does with a batch of events, for a projection's own tests: its writer applies those the
// projection handles, in one transaction, flushes, and forgets what it remembered.
import type { EnvelopePart, RecordedEvent } from '#event-store';
import type { Projection, ProjectionWriter } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';

export function commitEvents<P extends EnvelopePart>(
  db: ReadModelDatabase,
  projection: Projection<P>,
  writer: ProjectionWriter<P>,
  events: readonly RecordedEvent[],
): void {
  db.transaction(() => {
    for (const event of events) if (projection.handles(event)) writer.apply(event);
    writer.flush();
  })();
  writer.forget();
}
