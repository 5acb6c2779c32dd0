import { Query } from '@nestjs/cqrs';
import type { RecordedEvent } from '#event-store';

export type CorrelatedEvents = { events: RecordedEvent[]; hasMore: boolean };

/** Every organization and billing event recorded under one correlation id, in global order. */
export class GetCorrelationQuery extends Query<CorrelatedEvents> {
  constructor(
    readonly correlationId: string,
    readonly limit: number,
  ) {
    super();
  }
}
