import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import { READ_MODELS, ReadModels } from '#read-models';
import { GetCorrelationQuery, type CorrelatedEvents } from './get-correlation.query.js';

/** The index says where the events are; the events themselves are read from the store, the only record. */
@QueryHandler(GetCorrelationQuery)
export class GetCorrelationHandler implements IQueryHandler<GetCorrelationQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  async execute({ correlationId, limit }: GetCorrelationQuery): Promise<CorrelatedEvents> {
    const locations = this.readModels.correlations.eventsOf(correlationId, limit + 1);
    const events = await Promise.all(
      locations.slice(0, limit).map(async (location): Promise<RecordedEvent> => {
        const read = await this.store.readStream(location.streamId, { fromRevision: location.revision, maxCount: 1 });
        const event = read.found ? read.events[0] : undefined;
        if (event === undefined || event.id !== location.eventId)
          throw new Error(
            `The correlation index points at ${location.streamId}@${location.revision}, which is not event ${location.eventId}`,
          );
        return event;
      }),
    );
    return { events, hasMore: locations.length > limit };
  }
}
