// OpenFeature's remote evaluation protocol (OFREP) over the organization read model: any OpenFeature SDK
// evaluates Chorus's entitlements with its stock OFREP provider (docs/entitlements.md).
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ENTITLEMENT_KEYS, type Entitlement } from '#domain';
import { jsonSafe } from '../http/json-safe.js';
import { Credentials, eventStreamAnswer, Operation } from '../http/operation.decorator.js';
import {
  ofrepBulkAnswer,
  ofrepConfigurationAnswer,
  ofrepEvaluationAnswer,
  ofrepEvaluationRequest,
  ofrepRefusals,
} from './entitlement-responses.js';
import { ChangeStreams } from './change-streams.js';
import { ENTITLEMENTS_SCOPE, EntitlementCallers } from './entitlement-callers.js';
import type { EntitlementChange } from './entitlement-changes.js';
import { OfrepError } from './ofrep-error.js';
import { OrganizationEntitlements, type EntitlementSet } from './organization-entitlements.js';

const knownKeys = new Set(ENTITLEMENT_KEYS);

/** ADR-0008's event stream of one organization: on the OFREP base URL's origin, authorised as the evaluation was. */
export const OFREP_EVENT_STREAM_PATH = '/ofrep/v1/event-stream';

export type EventStreamEntry = { type: 'sse'; endpoint: { requestUri: string } };

const eventStreamsOf = (organizationId: string): EventStreamEntry[] => [
  {
    type: 'sse',
    endpoint: { requestUri: `${OFREP_EVENT_STREAM_PATH}?targetingKey=${encodeURIComponent(organizationId)}` },
  },
];

/**
 * ADR-0008's event: the SSE envelope's event is always `message`; `data.type` says what to do, `etag` is the bulk
 * answer's new ETag.
 */
const refetchEvent = ({ position, etag }: EntitlementChange): string =>
  `id: ${position}\nevent: message\ndata: ${JSON.stringify({ type: 'refetchEvaluation', etag })}\n\n`;

type Evaluation = {
  key: string;
  value: Entitlement['value'];
  reason: Entitlement['reason'];
  variant: string;
  metadata: { position: number | string };
};

/** OFREP's evaluation request: `{context: {targetingKey, ...}}`; the targeting key is the organization's id. */
function targetingKeyOf(body: unknown, key?: string): string {
  const parsed = ofrepEvaluationRequest.safeParse(body);
  if (parsed.success) return parsed.data.context.targetingKey;
  // Only the targeting key wrong: TARGETING_KEY_MISSING; anything else about the body: PARSE_ERROR.
  if (parsed.error.issues.every((issue) => issue.path.length === 2 && issue.path[1] === 'targetingKey')) {
    throw new OfrepError(
      400,
      'TARGETING_KEY_MISSING',
      'context.targetingKey must name the organization (its id).',
      key,
    );
  }
  throw new OfrepError(400, 'PARSE_ERROR', 'The body is {"context": {"targetingKey": "<organization id>"}}.', key);
}

const evaluation = (key: string, flag: Entitlement, set: EntitlementSet): Evaluation => ({
  key,
  value: flag.value,
  reason: flag.reason,
  variant: typeof flag.value === 'object' ? 'limit' : String(flag.value),
  metadata: { position: jsonSafe(set.position) },
});

@Credentials({ apiKey: ENTITLEMENTS_SCOPE }, 'session')
@Controller('ofrep/v1')
export class OfrepController {
  constructor(
    private readonly callers: EntitlementCallers,
    private readonly entitlements: OrganizationEntitlements,
    private readonly streams: ChangeStreams,
  ) {}

  @Get('configuration')
  @Operation({
    summary: "OFREP's provider configuration: what is evaluated, and where changes are pushed",
    answer: ofrepConfigurationAnswer,
    responses: {
      401: 'UNAUTHENTICATED: no or an unknown credential',
      403: 'FORBIDDEN: the credential may not read entitlements',
    },
  })
  async configuration(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<object> {
    response.setHeader('Cache-Control', 'no-store');
    await this.callers.authenticate(request);
    return {
      name: 'Chorus entitlements',
      capabilities: {
        cacheInvalidation: { polling: { enabled: true, minPollingIntervalMs: 30_000 } },
        flagEvaluation: { supportedTypes: ['boolean', 'string', 'object'] },
        // Chorus's own: its change stream (server-sent events), so that a provider need not poll.
        changeNotification: { sse: { url: '/entitlements/changes' } },
      },
    };
  }

  @Post('evaluate/flags/:key')
  @HttpCode(200)
  @Operation({
    summary: 'One entitlement of the organization named by context.targetingKey',
    body: ofrepEvaluationRequest,
    answer: ofrepEvaluationAnswer,
    responses: ofrepRefusals(true),
  })
  async evaluateFlag(
    @Param('key') key: string,
    @Body() body: unknown,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Evaluation> {
    // Per caller, and revalidated each time: a shared cache must not keep one organization's answer for another.
    response.setHeader('Cache-Control', 'private, no-cache');
    const principal = await this.callers.authenticate(request);
    const set = await this.visible(principal, targetingKeyOf(body, key), key);
    const flag = set.flags.get(key);
    if (flag === undefined || !knownKeys.has(key))
      throw new OfrepError(404, 'FLAG_NOT_FOUND', `There is no flag ${key}.`, key);
    return evaluation(key, flag, set);
  }

  @Post('evaluate/flags')
  @HttpCode(200)
  @Operation({
    summary: 'Every entitlement of the organization named by context.targetingKey, with an ETag (If-None-Match: 304)',
    body: ofrepEvaluationRequest,
    answer: ofrepBulkAnswer,
    responses: { 304: 'Not modified: the ETag given in If-None-Match is still current', ...ofrepRefusals(false) },
  })
  async evaluateFlags(@Body() body: unknown, @Req() request: Request, @Res() response: Response): Promise<void> {
    const principal = await this.callers.authenticate(request);
    const set = await this.visible(principal, targetingKeyOf(body));
    response.setHeader('Cache-Control', 'private, no-cache');
    response.setHeader('ETag', set.etag);
    if (request.headers['if-none-match'] === set.etag) {
      response.status(304).end();
      return;
    }
    response.status(200).json({
      flags: [...set.flags].map(([key, flag]) => evaluation(key, flag, set)),
      eventStreams: eventStreamsOf(set.organizationId),
      metadata: { position: jsonSafe(set.position) },
    });
  }

  @Get('event-stream')
  @Operation({
    summary:
      "OFREP's event stream (ADR-0008) of the organization named by ?targetingKey: refetchEvaluation when its entitlements change",
    answer: eventStreamAnswer,
    responses: ofrepRefusals(false),
  })
  async eventStream(
    @Query('targetingKey') targetingKey: unknown,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const principal = await this.callers.authenticate(request);
    if (typeof targetingKey !== 'string' || targetingKey === '') {
      throw new OfrepError(
        400,
        'TARGETING_KEY_MISSING',
        "?targetingKey must name the organization (its id), as the bulk evaluation's eventStreams do.",
      );
    }
    await this.visible(principal, targetingKey);
    this.streams.open(request, response, principal, [targetingKey], {
      opening: 'OFREP events',
      // A member removed since is no longer sent the organization's changes (their stream ends with it, too).
      carries: async (change) =>
        change.organizationId === targetingKey && (await this.callers.maySee(principal, targetingKey)),
      eventOf: refetchEvent,
      // The provider re-fetches unconditionally: whatever changed since its Last-Event-ID, it reads it all.
      reset: `event: message\ndata: ${JSON.stringify({ type: 'refetchEvaluation' })}\n\n`,
    });
  }

  /**
   * The organization's entitlements if the caller may see it; one answer for "no such organization" and "not yours".
   */
  private async visible(
    principal: Parameters<EntitlementCallers['maySee']>[0],
    organizationId: string,
    key?: string,
  ): Promise<EntitlementSet> {
    const set = (await this.callers.maySee(principal, organizationId))
      ? this.entitlements.of(organizationId)
      : undefined;
    if (set === undefined)
      throw new OfrepError(
        400,
        'INVALID_CONTEXT',
        'No organization with this targetingKey is visible to these credentials.',
        key,
      );
    return set;
  }
}
