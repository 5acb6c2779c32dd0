import { Query } from '@nestjs/cqrs';
import type { OrganizationStateAt, StatePoint } from './organization-state-at.js';

/** The organization as it was at a revision or an instant (or now). */
export class GetOrganizationStateQuery extends Query<OrganizationStateAt> {
  constructor(
    readonly organizationId: string,
    readonly point: StatePoint,
  ) {
    super();
  }
}
