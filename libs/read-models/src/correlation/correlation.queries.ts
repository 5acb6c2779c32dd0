import type { ReadModelDatabase } from '../read-model-database.js';
import { eventCorrelationsTable } from './correlation.tables.js';

export type CorrelatedEventLocation = { position: bigint; streamId: string; revision: bigint; eventId: string };

type LocationRow = { position: bigint; stream_id: string; revision: bigint; event_id: string };

export class CorrelationQueries {
  private readonly selectLocations;
  private readonly selectLocationsIn;

  constructor(private readonly db: ReadModelDatabase) {
    db.exec(eventCorrelationsTable.create(eventCorrelationsTable.name));
    this.selectLocations = db
      .prepare<[string, number], LocationRow>(
        `SELECT position, stream_id, revision, event_id FROM ${eventCorrelationsTable.name}
         WHERE correlation_id = ? ORDER BY position LIMIT ?`,
      )
      .safeIntegers(true);
    this.selectLocationsIn = db
      .prepare<[string, string, number, string, number], LocationRow>(
        `SELECT position, stream_id, revision, event_id FROM ${eventCorrelationsTable.name}
         WHERE correlation_id = ? AND (stream_id = ? OR substr(stream_id, 1, ?) = ?) ORDER BY position LIMIT ?`,
      )
      .safeIntegers(true);
  }

  eventsOf(correlationId: string, limit: number): CorrelatedEventLocation[] {
    return this.selectLocations.all(correlationId, limit).map(toLocation);
  }

  /** Other organizations' events are never read, so they count for nothing against `limit`. */
  eventsIn(correlationId: string, streamId: string, prefix: string, limit: number): CorrelatedEventLocation[] {
    return this.selectLocationsIn.all(correlationId, streamId, prefix.length, prefix, limit).map(toLocation);
  }
}

function toLocation(row: LocationRow): CorrelatedEventLocation {
  return {
    position: row.position,
    streamId: row.stream_id,
    revision: row.revision,
    eventId: row.event_id,
  };
}
