import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { OrganizationView } from '#domain';
import type { z } from 'zod';
import { HISTORY_READERS, RequireAccess } from '../access/require-access.decorator.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { jsonSafe } from '../http/json-safe.js';
import { validOrganizationId } from '../organizations/organization-requests.js';
import { historyQuery, stateQuery } from './audit-requests.js';
import { GetOrganizationHistoryQuery } from './get-organization-history.query.js';
import { GetOrganizationStateQuery } from './get-organization-state.query.js';
import { historyEvent, type HistoryEvent } from './history-event.js';
import { Operation } from '../http/operation.decorator.js';
import { historyAnswer, stateAnswer } from './audit-responses.js';

/** Auditors: API keys with audit:read, or the organization's own owners, admins and auditors (docs/domain.md). */
const AUDITORS = { scope: 'audit:read', members: HISTORY_READERS } as const;

export type HistoryAnswer = {
  organizationId: string;
  events: HistoryEvent[];
  nextFromRevision: number | string;
  hasMore: boolean;
};

export type StateAnswer = OrganizationView & {
  revision: number | string;
  position: number | string;
  recordedAt: string;
};

/** An organization's complete record and its state at any point of it (docs/api.md, Organizations). */
@Controller('organizations')
export class OrganizationAuditController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id/history')
  @RequireAccess(AUDITORS)
  @Operation({
    summary:
      "The events of the organization's stream, oldest first, with type, data, metadata, revision, position, time",
    answer: historyAnswer,
  })
  async history(
    @Param('id', validOrganizationId) id: string,
    @Query(new ZodValidationPipe(historyQuery)) query: z.output<typeof historyQuery>,
  ): Promise<HistoryAnswer> {
    const page = await this.queries.execute(new GetOrganizationHistoryQuery(id, query));
    return {
      organizationId: id,
      events: page.events.map(historyEvent),
      nextFromRevision: jsonSafe(page.nextFromRevision),
      hasMore: page.hasMore,
    };
  }

  @Get(':id/state')
  @RequireAccess(AUDITORS)
  @Operation({
    summary: 'The organization folded up to a revision (asOfRevision) or a time (asOf)',
    answer: stateAnswer,
    responses: { 404: 'NOT_FOUND' },
  })
  async state(
    @Param('id', validOrganizationId) id: string,
    @Query(new ZodValidationPipe(stateQuery)) point: z.output<typeof stateQuery>,
  ): Promise<StateAnswer> {
    const state = await this.queries.execute(new GetOrganizationStateQuery(id, point));
    return {
      ...state.view,
      revision: jsonSafe(state.revision),
      position: jsonSafe(state.position),
      recordedAt: state.recordedAt,
    };
  }
}
