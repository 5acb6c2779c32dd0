// An organization's webhook endpoints (docs/api.md, Webhooks; docs/webhooks.md).
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post } from '@nestjs/common';
import type { z } from 'zod';
import type { CommandContext } from '#application';
import { CONFIG, type Config } from '#config';
import type { WebhookEndpoint } from '#domain';
import { notPublicLiteral } from '#identity';
import { OWNERS_AND_ADMINS, RequireAccess } from '../access/require-access.decorator.js';
import { Operation } from '../http/operation.decorator.js';
import { ProblemError } from '../http/problem-error.js';
import { PrincipalContext } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { jsonSafe } from '../http/json-safe.js';
import { validOrganizationId } from '../organizations/organization-requests.js';
import { WebhookDeliveries } from './webhook-deliveries.service.js';
import { WebhookEndpoints } from './webhook-endpoints.service.js';
import {
  changeWebhookRequest,
  createdWebhookAnswer,
  createWebhookRequest,
  deliveriesAnswer,
  replayAnswer,
  replayWebhookRequest,
  rotatedSecretAnswer,
  testEventAnswer,
  validWebhookId,
  webhookEndpointAnswer,
  webhookListAnswer,
} from './webhook-requests.js';

const WRITE = { scope: 'webhooks:write', members: OWNERS_AND_ADMINS } as const;

const answerOf = (endpoint: WebhookEndpoint): z.output<typeof webhookEndpointAnswer> => ({
  id: endpoint.endpointId,
  url: endpoint.url,
  events: endpoint.events,
  format: endpoint.format,
  description: endpoint.description,
  enabled: endpoint.enabled,
  disabledReason: endpoint.disabledReason,
  createdAt: endpoint.createdAt,
  secretRotatedUntil: endpoint.previousUntil,
});

@Controller('organizations/:id/webhooks')
export class WebhooksController {
  constructor(
    private readonly endpoints: WebhookEndpoints,
    private readonly sender: WebhookDeliveries,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Post()
  @RequireAccess(WRITE)
  @Operation({
    summary:
      'Add a webhook endpoint: the organization’s events, signed (Standard Webhooks), from now, its beginning or a position',
    answer: createdWebhookAnswer,
    responses: {
      400: 'VALIDATION_FAILED: not an http(s) URL, an unknown event type, a private address in production',
      409: 'LIMIT_EXCEEDED: 10 endpoints already',
    },
  })
  async create(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(createWebhookRequest)) request: z.output<typeof createWebhookRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<z.output<typeof createdWebhookAnswer>> {
    this.refusePrivate(request.url);
    const { endpoint, secret } = await this.endpoints.create(id, request, context);
    return { ...answerOf(endpoint), secret };
  }

  @Get()
  @RequireAccess(WRITE)
  @Operation({ summary: 'The organization’s webhook endpoints (never their secrets)', answer: webhookListAnswer })
  async list(@Param('id', validOrganizationId) id: string): Promise<z.output<typeof webhookListAnswer>> {
    return { endpoints: (await this.endpoints.list(id)).map(answerOf) };
  }

  @Get(':webhookId')
  @RequireAccess(WRITE)
  @Operation({
    summary: 'One webhook endpoint',
    answer: webhookEndpointAnswer,
    responses: { 404: 'NOT_FOUND: not an endpoint of this organization' },
  })
  async one(
    @Param('id', validOrganizationId) id: string,
    @Param('webhookId', validWebhookId) webhookId: string,
  ): Promise<z.output<typeof webhookEndpointAnswer>> {
    return answerOf(await this.endpoints.get(id, webhookId));
  }

  @Patch(':webhookId')
  @RequireAccess(WRITE)
  @Operation({
    summary: 'Change an endpoint’s URL, event types, description, or turn it off and on',
    answer: webhookEndpointAnswer,
    responses: { 404: 'NOT_FOUND: not an endpoint of this organization' },
  })
  async change(
    @Param('id', validOrganizationId) id: string,
    @Param('webhookId', validWebhookId) webhookId: string,
    @Body(new ZodValidationPipe(changeWebhookRequest)) change: z.output<typeof changeWebhookRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<z.output<typeof webhookEndpointAnswer>> {
    if (change.url !== undefined) this.refusePrivate(change.url);
    return answerOf(await this.endpoints.change(id, webhookId, change, context));
  }

  @Delete(':webhookId')
  @HttpCode(204)
  @RequireAccess(WRITE)
  @Operation({
    summary: 'Delete an endpoint: nothing more is sent to it, and its secrets are erased',
    responses: { 404: 'NOT_FOUND: not an endpoint of this organization' },
  })
  async delete(
    @Param('id', validOrganizationId) id: string,
    @Param('webhookId', validWebhookId) webhookId: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<void> {
    await this.endpoints.delete(id, webhookId, context);
  }

  @Post(':webhookId/secret')
  @HttpCode(200)
  @RequireAccess(WRITE)
  @Operation({
    summary: 'Rotate the signing secret: the new one is shown once; both sign for 24 hours',
    answer: rotatedSecretAnswer,
    responses: { 404: 'NOT_FOUND: not an endpoint of this organization' },
  })
  async rotate(
    @Param('id', validOrganizationId) id: string,
    @Param('webhookId', validWebhookId) webhookId: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<z.output<typeof rotatedSecretAnswer>> {
    return this.endpoints.rotate(id, webhookId, context);
  }

  @Post(':webhookId/replay')
  @HttpCode(202)
  @RequireAccess(WRITE)
  @Operation({
    summary:
      'Send the organization’s events again, from a position or a time (inclusive), in order, then go on with new ones',
    answer: replayAnswer,
    responses: { 404: 'NOT_FOUND: not an endpoint of this organization' },
  })
  async replay(
    @Param('id', validOrganizationId) id: string,
    @Param('webhookId', validWebhookId) webhookId: string,
    @Body(new ZodValidationPipe(replayWebhookRequest)) from: z.output<typeof replayWebhookRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<z.output<typeof replayAnswer>> {
    const { replayId, fromRevision, fromPosition } = await this.endpoints.replay(id, webhookId, from, context);
    return { replayId, fromRevision: jsonSafe(fromRevision), fromPosition: jsonSafe(fromPosition) };
  }

  @Post(':webhookId/test')
  @HttpCode(200)
  @RequireAccess(WRITE)
  @Operation({
    summary:
      'Send a `webhook.test` event now, signed or authenticated as the endpoint’s format says, and answer what the receiver did',
    answer: testEventAnswer,
    responses: { 404: 'NOT_FOUND: not an endpoint of this organization' },
  })
  async test(
    @Param('id', validOrganizationId) id: string,
    @Param('webhookId', validWebhookId) webhookId: string,
  ): Promise<z.output<typeof testEventAnswer>> {
    const { eventId, ok, status, ms, excerpt, reason } = await this.sender.sendTest(id, webhookId);
    return { eventId, delivered: ok, status, ms, excerpt, reason };
  }

  @Get(':webhookId/deliveries')
  @RequireAccess(WRITE)
  @Operation({
    summary: 'The last 1,000 delivery attempts, newest first: event, attempt, status, time, the receiver’s answer',
    answer: deliveriesAnswer,
    responses: { 404: 'NOT_FOUND: not an endpoint of this organization' },
  })
  async deliveries(
    @Param('id', validOrganizationId) id: string,
    @Param('webhookId', validWebhookId) webhookId: string,
  ): Promise<z.output<typeof deliveriesAnswer>> {
    const deliveries = await this.endpoints.deliveries(id, webhookId);
    return { deliveries: deliveries.map(({ sender: _, upTo: __, ...delivery }) => delivery) };
  }

  private refusePrivate(url: string): void {
    // In production an address literal must be public; a name is judged each time a delivery connects.
    const address = this.config.nodeEnv === 'production' ? notPublicLiteral(url) : undefined;
    if (address === undefined) return;
    const detail = `url: ${address} is not a public address; webhooks are sent only to public addresses`;
    throw new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', detail, {
      errors: [{ pointer: '#/url', detail: `${address} is not a public address` }],
    });
  }
}
