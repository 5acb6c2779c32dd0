import { Query } from '@nestjs/cqrs';
import type { HistoryPage, HistoryPageRequest } from './organization-history.js';

/** One page of an organization's events, oldest first. */
export class GetOrganizationHistoryQuery extends Query<HistoryPage> {
  constructor(
    readonly organizationId: string,
    readonly page: HistoryPageRequest,
  ) {
    super();
  }
}
