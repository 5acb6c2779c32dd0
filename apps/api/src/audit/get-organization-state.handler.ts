import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { PlanCatalogue } from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { GetOrganizationStateQuery } from './get-organization-state.query.js';
import { organizationStateAt, type OrganizationStateAt } from './organization-state-at.js';

@QueryHandler(GetOrganizationStateQuery)
export class GetOrganizationStateHandler implements IQueryHandler<GetOrganizationStateQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
  ) {}

  execute({ organizationId, point }: GetOrganizationStateQuery): Promise<OrganizationStateAt> {
    return organizationStateAt(this.store, this.catalogue, organizationId, point);
  }
}
