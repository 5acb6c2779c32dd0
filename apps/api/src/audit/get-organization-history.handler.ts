import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '#event-store';
import { GetOrganizationHistoryQuery } from './get-organization-history.query.js';
import { readOrganizationHistory, type HistoryPage } from './organization-history.js';

@QueryHandler(GetOrganizationHistoryQuery)
export class GetOrganizationHistoryHandler implements IQueryHandler<GetOrganizationHistoryQuery> {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  execute({ organizationId, page }: GetOrganizationHistoryQuery): Promise<HistoryPage> {
    return readOrganizationHistory(this.store, organizationId, page);
  }
}
