// An organization's webhook endpoints (docs/webhooks.md): decided on the organization's endpoints stream; each
// generation's secret is a key of the key store, shown once, erased with the endpoint.
import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  FoldedStateCache,
  handleCommand,
  loadStream,
  seal,
  unseal,
  type CommandContext,
  type PersonalKeys,
} from '#application';
import {
  cursorData,
  DomainError,
  endpointNotFound,
  WEBHOOK_CURSOR_START,
  webhookDeliveriesStream,
  webhookEndpointsDecider,
  webhookSecretSubject,
  webhookTokenSubject,
  type WebhookAttempt,
  type WebhookCursor,
  type WebhookDeliveryFailed,
  type WebhookEndpoint,
  type WebhookEndpointCommand,
  type WebhookEndpoints as Endpoints,
  type WebhookFormat,
} from '#domain';
import { EVENT_STORE, PERSONAL_KEYS, type EventStore } from '#event-store';
import { AppClock } from '../config/app-clock.js';
import { WebhookSource } from './webhook-source.js';

/** The delivery log's length. */
export const DELIVERY_LOG_SIZE = 1_000;

export type StartFrom = 'now' | 'beginning' | bigint;
export type NewEndpoint = {
  url: string;
  events: string[];
  format: WebhookFormat;
  description: string;
  startFrom: StartFrom;
  token?: string | undefined;
};
export type EndpointChange = {
  url?: string;
  events?: string[];
  description?: string;
  enabled?: boolean;
  token?: string | undefined;
};
export type ReplayStarted = { replayId: string; fromRevision: bigint; fromPosition: bigint };
/** Inclusive. */
export type ReplayFrom = { fromPosition: bigint } | { fromTime: Date };

export type LoggedDelivery = WebhookAttempt & {
  outcome: 'delivered' | 'failed';
  reason?: string;
  nextAttemptAt?: string;
};

const tokenRefused = (): DomainError =>
  new DomainError('VALIDATION_FAILED', 'A standard endpoint is signed with its secret and takes no token.', {
    errors: [{ pointer: '#/token', detail: 'only for splunk-hec and datadog' }],
  });

/** `whsec_` and the key in base64: what Standard Webhooks' libraries take. */
export const secretText = (key: Buffer): string => `whsec_${key.toString('base64')}`;

@Injectable()
export class WebhookEndpoints {
  private readonly cache = new FoldedStateCache<Endpoints>(1_000);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PERSONAL_KEYS) private readonly keys: PersonalKeys,
    private readonly clock: AppClock,
    private readonly source: WebhookSource,
  ) {}

  async list(organizationId: string): Promise<readonly WebhookEndpoint[]> {
    return (await loadStream(this.store, webhookEndpointsDecider, organizationId, { cache: this.cache })).state
      .endpoints;
  }

  async get(organizationId: string, endpointId: string): Promise<WebhookEndpoint> {
    const endpoint = (await this.list(organizationId)).find((candidate) => candidate.endpointId === endpointId);
    if (endpoint === undefined) throw endpointNotFound(endpointId);
    return endpoint;
  }

  async create(
    organizationId: string,
    request: NewEndpoint,
    context: CommandContext,
  ): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    const startAfter = await this.startAfter(organizationId, request.startFrom);
    const endpointId = randomBytes(12).toString('hex');
    const { startFrom: _, token, ...settings } = request;
    const sealedToken = token === undefined ? {} : { sealedToken: await this.sealToken(endpointId, token) };
    const data = {
      endpointId,
      ...settings,
      ...sealedToken,
      startAfter: cursorData(startAfter),
      at: this.clock.now().toISOString(),
    };
    // Made before the endpoint exists, so that its first delivery finds it.
    const secret = secretText(await this.keys.obtain(webhookSecretSubject(endpointId, 1)));
    await this.decide(organizationId, { type: 'CreateWebhookEndpoint', data }, context);
    return { endpoint: await this.get(organizationId, endpointId), secret };
  }
  async change(
    organizationId: string,
    endpointId: string,
    { token, ...change }: EndpointChange,
    context: CommandContext,
  ): Promise<WebhookEndpoint> {
    const endpoint = await this.get(organizationId, endpointId);
    if (token !== undefined && endpoint.format === 'standard') throw tokenRefused();
    const sealedToken = token === undefined ? {} : { sealedToken: await this.sealToken(endpointId, token) };
    await this.decide(
      organizationId,
      { type: 'ChangeWebhookEndpoint', data: { endpointId, ...change, ...sealedToken } },
      context,
    );
    return this.get(organizationId, endpointId);
  }

  async rotate(
    organizationId: string,
    endpointId: string,
    context: CommandContext,
  ): Promise<{ secret: string; previousSecretValidUntil: string }> {
    const before = await this.get(organizationId, endpointId);
    // The next generation's key first, as at creation; a rotation that loses a race to another makes the one after.
    await this.keys.obtain(webhookSecretSubject(endpointId, before.generation + 1));
    const endpoints = await this.decide(
      organizationId,
      { type: 'RotateWebhookSecret', data: { endpointId, at: this.clock.now() } },
      context,
    );
    const endpoint = endpoints.find((candidate) => candidate.endpointId === endpointId);
    if (endpoint === undefined) throw endpointNotFound(endpointId);
    return {
      secret: secretText(await this.keys.obtain(webhookSecretSubject(endpointId, endpoint.generation))),
      previousSecretValidUntil: endpoint.previousUntil ?? '',
    };
  }

  /** `fromRevision` is the organization's; `fromPosition` the log's, where members' own events start too. */
  async replay(
    organizationId: string,
    endpointId: string,
    from: ReplayFrom,
    context: CommandContext,
  ): Promise<ReplayStarted> {
    await this.get(organizationId, endpointId);
    const after =
      'fromPosition' in from
        ? await this.source.cursorAtPosition(organizationId, from.fromPosition)
        : await this.source.cursorAtTime(organizationId, from.fromTime);
    const replayId = randomBytes(12).toString('hex');
    const at = this.clock.now().toISOString();
    await this.decide(
      organizationId,
      { type: 'ReplayWebhookEndpoint', data: { endpointId, after: cursorData(after), replayId, at } },
      context,
    );
    return { replayId, fromRevision: after.revision + 1n, fromPosition: after.position + 1n };
  }

  async delete(organizationId: string, endpointId: string, context: CommandContext): Promise<void> {
    const endpoint = await this.get(organizationId, endpointId);
    await this.decide(
      organizationId,
      { type: 'DeleteWebhookEndpoint', data: { endpointId, at: this.clock.now() } },
      context,
    );
    for (let generation = 1; generation <= endpoint.generation; generation += 1)
      await this.keys.erase(webhookSecretSubject(endpointId, generation));
    await this.keys.erase(webhookTokenSubject(endpointId));
  }

  /** The product's token, opened; undefined once the endpoint is deleted. */
  async tokenOf(endpoint: WebhookEndpoint): Promise<string | undefined> {
    if (endpoint.sealedToken === null) return undefined;
    const subject = webhookTokenSubject(endpoint.endpointId);
    const key = (await this.keys.find([subject])).get(subject);
    return key === undefined ? undefined : (unseal(key, { $sealed: endpoint.sealedToken, as: 'string' }) as string);
  }

  /** Sealed under the endpoint's own key: the log holds the token only in a form its erasure makes unreadable. */
  private async sealToken(endpointId: string, token: string): Promise<string> {
    const subject = webhookTokenSubject(endpointId);
    return seal(await this.keys.obtain(subject), subject, token).$sealed;
  }

  /** The keys of the generations that sign now; none once the endpoint is deleted. */
  async signingKeys(endpointId: string, generations: readonly number[]): Promise<Buffer[]> {
    const found = await this.keys.find(generations.map((generation) => webhookSecretSubject(endpointId, generation)));
    return generations.flatMap((generation) => found.get(webhookSecretSubject(endpointId, generation)) ?? []);
  }

  /** Newest first. */
  async deliveries(organizationId: string, endpointId: string): Promise<LoggedDelivery[]> {
    await this.get(organizationId, endpointId);
    const read = await this.store.readStream(webhookDeliveriesStream(endpointId), {
      direction: 'backwards',
      maxCount: DELIVERY_LOG_SIZE * 2,
    });
    if (!read.found) return [];
    const logged = read.events.flatMap((event): LoggedDelivery[] => {
      if (event.type === 'WebhookDelivered') return [{ ...(event.data as WebhookAttempt), outcome: 'delivered' }];
      if (event.type === 'WebhookDeliveryFailed')
        return [{ ...(event.data as WebhookDeliveryFailed['data']), outcome: 'failed' }];
      return [];
    });
    return logged.slice(0, DELIVERY_LOG_SIZE);
  }

  private async decide(
    organizationId: string,
    command: WebhookEndpointCommand,
    context: CommandContext,
  ): Promise<readonly WebhookEndpoint[]> {
    return (
      await handleCommand(this.store, webhookEndpointsDecider, organizationId, command, context, { cache: this.cache })
    ).state.endpoints;
  }

  /** Each way reads the organization's last event, and refuses NOT_FOUND when there is none. */
  private async startAfter(organizationId: string, startFrom: StartFrom): Promise<WebhookCursor> {
    if (startFrom === 'now') return this.source.cursorNow(organizationId);
    if (startFrom !== 'beginning') return this.source.cursorAtPosition(organizationId, startFrom);
    await this.source.lastRevision(organizationId);
    return WEBHOOK_CURSOR_START;
  }
}
