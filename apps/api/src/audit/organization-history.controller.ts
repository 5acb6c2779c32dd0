import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { Controller, Get, Inject, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { z } from 'zod';
import { namesIn, type OrganizationChange, type PlanCatalogue } from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { READ_MODELS, ReadModels } from '#read-models';
import { HISTORY_READERS, RequireAccess } from '../access/require-access.decorator.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { jsonSafe } from '../http/json-safe.js';
import { validOrganizationId } from '../organizations/organization-requests.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { awaitMinPosition } from '../read-models/position-wait.js';
import { ActorNameLookup } from './actor-name-lookup.js';
import {
  correlationIdParameter,
  exportQuery,
  historyReadQuery,
  memberSecurityQuery,
  changesQuery,
  timelineQuery,
} from './audit-requests.js';
import { MemberSecurity, type MemberSecurityPage } from './member-security.js';
import { Operation } from '../http/operation.decorator.js';
import {
  changesAnswer,
  historyFiltersAnswer,
  memberSecurityPageAnswer,
  organizationCorrelationAnswer,
  timelinePageAnswer,
  usageSeriesAnswer,
} from './audit-responses.js';
import { HistoryExport } from './history-export.js';
import { EXPORT_CONTENT_TYPES } from './history-export-format.js';
import type { StateAnswer } from './organization-audit.controller.js';
import { organizationChangesAt } from './organization-state-at.js';
import {
  OrganizationTimeline,
  type HistoryFilters,
  type OrganizationCorrelation,
  type TimelinePage,
} from './organization-timeline.js';
import { namedActorsOf, timelineEntry, type TimelineEntry } from './timeline-entry.js';
import { organizationUsageSeries, type UsageSeriesAnswer } from './usage-series.js';

/** Auditors: API keys with audit:read, or the organization's own owners, admins and auditors (docs/domain.md). */
const AUDITORS = { scope: 'audit:read', members: HISTORY_READERS } as const;

export type ChangesAnswer = {
  entry: TimelineEntry;
  /** `members` may be the first of them only (`memberLimit`): `memberCount` says how many there were. */
  state: StateAnswer & { memberCount: number };
  changes: OrganizationChange[];
};

/**
 * The audit explorer's reads (docs/console.md, History). All of one organization, so the access guard's membership
 * check covers them: an auditor reads their own organization's record and nothing else.
 */
@Controller('organizations/:id')
export class OrganizationHistoryController {
  constructor(
    private readonly timeline: OrganizationTimeline,
    private readonly exports: HistoryExport,
    private readonly actorNames: ActorNameLookup,
    private readonly memberSecurity: MemberSecurity,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  @Get('history/sign-in-security')
  @RequireAccess(AUDITORS)
  @Operation({
    summary:
      "Members' two-step sign-in, in words: factors set up and removed, recovery codes made and used, failed second steps, owners' resets",
    answer: memberSecurityPageAnswer,
    description:
      '`{organizationId, entries, next}`, newest first, while each person was a member; pass `next` as `before` for the next page.',
  })
  async signInSecurity(
    @Param('id', validOrganizationId) id: string,
    @Query(new ZodValidationPipe(memberSecurityQuery)) { before, limit }: z.output<typeof memberSecurityQuery>,
  ): Promise<MemberSecurityPage> {
    return this.memberSecurity.page(id, limit, before);
  }

  @Get('history/events')
  @RequireAccess(AUDITORS)
  @Operation({
    summary:
      "The audit explorer's timeline: events in words, newest or oldest first, filtered by type, actor and time on the server",
    answer: timelinePageAnswer,
    description:
      '`{organizationId, order, entries, next}`; each entry `{recordedAt, revision, position, type, description, actor, actorName, correlationId}`; pass `next` as `after` for the next page.',
  })
  async events(
    @Param('id', validOrganizationId) id: string,
    @Query(new ZodValidationPipe(timelineQuery)) query: z.output<typeof timelineQuery>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TimelinePage> {
    // The timeline is an index (a projection): `?minPosition=` waits for this browser's own last write.
    await awaitMinPosition(this.readModels, query.read, response);
    return this.timeline.page(id, query.request);
  }

  @Get('history/filters')
  @RequireAccess(AUDITORS)
  @Operation({
    summary: "The timeline filters' choices: every event type, and the actors of this organization's history in words",
    answer: historyFiltersAnswer,
  })
  async filters(
    @Param('id', validOrganizationId) id: string,
    @Query(new ZodValidationPipe(historyReadQuery)) query: z.output<typeof historyReadQuery>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<HistoryFilters> {
    await awaitMinPosition(this.readModels, query, response);
    return this.timeline.filters(id);
  }

  /** The event at a point (a revision, an instant, or the latest), the state after it, and what it changed. */
  @Get('history/changes')
  @RequireAccess(AUDITORS)
  @Operation({
    summary:
      'The event at a revision (asOfRevision) or time (asOf), the state after it, and what it changed against the state before',
    description:
      '`state.memberCount` says how many members there were; `memberLimit=N` (0 to 1000) lists the first N of them in `state.members`, as the console does: without it every member, which an organization of thousands makes a large answer (until 1.0, as for `GET /organizations/:id`).',
    answer: changesAnswer,
    responses: { 404: 'NOT_FOUND: no such revision, or before the organization existed' },
  })
  async changes(
    @Param('id', validOrganizationId) id: string,
    @Query(new ZodValidationPipe(changesQuery)) { point, memberLimit }: z.output<typeof changesQuery>,
  ): Promise<ChangesAnswer> {
    const at = await organizationChangesAt(this.store, this.catalogue, id, point);
    const keyNames = await this.actorNames.namesOf(id, namedActorsOf([at.event]));
    return {
      entry: timelineEntry(at.event, namesIn(at.before), keyNames),
      state: {
        ...at.view,
        members: memberLimit === undefined ? at.view.members : at.view.members.slice(0, memberLimit),
        memberCount: at.view.members.length,
        revision: jsonSafe(at.revision),
        position: jsonSafe(at.position),
        recordedAt: at.recordedAt,
      },
      changes: at.changes,
    };
  }

  @Get('history/usage')
  @RequireAccess(AUDITORS)
  @Operation({
    summary: 'Users and sites in use against the effective limit after each change',
    answer: usageSeriesAnswer,
  })
  async usage(
    @Param('id', validOrganizationId) id: string,
    @Query(new ZodValidationPipe(historyReadQuery)) query: z.output<typeof historyReadQuery>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<UsageSeriesAnswer> {
    // Read from the organization model's rows: `?minPosition=` waits for this browser's own last write.
    await awaitMinPosition(this.readModels, query, response);
    return organizationUsageSeries(this.store, this.readModels.organizations, this.catalogue, id);
  }

  /** The whole history as a download, streamed as it is read (constant memory, however long the history). */
  @Get('history/export')
  @RequireAccess(AUDITORS)
  @Operation({
    summary: 'The history as a streamed download: format=csv (RFC 4180, formula-like text neutralised) or jsonl',
    description:
      "Filtered like the timeline (`type`, `actor`, `from`, `to`), so the console's download holds what its page shows. `proof=true` (jsonl, no filter): each event also carries its bytes as stored and its hashes, other organizations' events between them only their digests, and the last line is a signed checkpoint: `chorus history:verify` checks it offline (docs/history.md).",
    answer: { mediaType: Object.values(EXPORT_CONTENT_TYPES), schema: z.string() },
    responses: { 409: 'NOT_CHAINED: this store keeps no chain, or events are not chained yet (proof=true)' },
  })
  async export(
    @Param('id', validOrganizationId) id: string,
    @Query(new ZodValidationPipe(exportQuery)) { format, proof, filter }: z.output<typeof exportQuery>,
    @Res() response: Response,
  ): Promise<void> {
    const chunks = proof ? await this.exports.openWithProof(id) : await this.exports.open(id, format, filter);
    response.status(200);
    response.setHeader('Content-Type', EXPORT_CONTENT_TYPES[format]);
    response.setHeader('Content-Disposition', `attachment; filename="${id}-history.${format}"`);
    response.setHeader('Cache-Control', 'no-store');
    // pipeline waits for the socket to drain between chunks and stops reading the store if the client goes.
    await pipeline(Readable.from(chunks), response).catch((error: unknown) => {
      if (!response.headersSent) throw error;
      response.destroy(error instanceof Error ? error : undefined);
    });
  }

  @Get('correlations/:correlationId')
  @RequireAccess(AUDITORS)
  @Operation({
    summary: "Every event of one correlation that concerns this organization: its own and the billing ledger's for it",
    description:
      "Another organization's events are never read: a shared or guessed correlation id answers what an unknown one would.",
    answer: organizationCorrelationAnswer,
  })
  async correlation(
    @Param('id', validOrganizationId) id: string,
    @Param('correlationId', new ZodValidationPipe(correlationIdParameter)) correlationId: string,
    @Query(new ZodValidationPipe(historyReadQuery)) query: z.output<typeof historyReadQuery>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OrganizationCorrelation> {
    await awaitMinPosition(this.readModels, query, response);
    return this.timeline.correlation(id, correlationId);
  }
}
