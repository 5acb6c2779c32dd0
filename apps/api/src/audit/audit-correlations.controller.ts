import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { Response } from 'express';
import { READ_MODELS, ReadModels } from '#read-models';
import { RequireAccess } from '../access/require-access.decorator.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { awaitMinPosition, readQuery, type ReadQuery } from '../read-models/position-wait.js';
import { correlationIdParameter } from './audit-requests.js';
import { GetCorrelationQuery } from './get-correlation.query.js';
import { historyEvent, type HistoryEvent } from './history-event.js';
import { Operation } from '../http/operation.decorator.js';
import { correlationAnswer } from './audit-responses.js';

/** A correlation may span organizations, so only API keys with audit:read (and the command line) may follow one. */
const AUDIT_CLIENTS = { scope: 'audit:read' } as const;

export const MAX_CORRELATED_EVENTS = 1_000;

export type CorrelationAnswer = { correlationId: string; events: HistoryEvent[]; hasMore: boolean };

/** GET /audit/correlations/:correlationId: what one request or one billing event caused, in every organization. */
@Controller('audit/correlations')
export class AuditCorrelationsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  @Get(':correlationId')
  @RequireAccess(AUDIT_CLIENTS)
  @Operation({ summary: 'Every event recorded under one correlation id', answer: correlationAnswer })
  async correlation(
    @Param('correlationId', new ZodValidationPipe(correlationIdParameter)) correlationId: string,
    @Query(new ZodValidationPipe(readQuery)) query: ReadQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CorrelationAnswer> {
    // The index is a projection: `?minPosition=` (a command's or a billing answer's position) waits for it.
    await awaitMinPosition(this.readModels, query, response);
    const found = await this.queries.execute(new GetCorrelationQuery(correlationId, MAX_CORRELATED_EVENTS));
    return { correlationId, events: found.events.map(historyEvent), hasMore: found.hasMore };
  }
}
