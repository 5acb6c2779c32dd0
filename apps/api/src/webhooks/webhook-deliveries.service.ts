// Every node runs a sender per endpoint; the deliveries stream's claim lets one of them send, in the order of the
// organization's history, each event recorded delivered before the next is sent (docs/webhooks.md, Delivery).
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import {
  FoldedStateCache,
  handleCommand,
  loadStream,
  newCommandContext,
  type CommandContext,
  type LoadedStream,
} from '#application';
import { CONFIG, type Config } from '#config';
import {
  accountAttemptsStreamPrefix,
  memberActivityOf,
  organizationEntitlements,
  organizationStreamPrefix,
  signingGenerations,
  userStreamPrefix,
  webhookDeliveriesDecider,
  webhookEndpointsDecider,
  webhookEndpointsStreamPrefix,
  type ExistingOrganization,
  type OrganizationState,
  type PlanCatalogue,
  type WebhookDeliveryCommand,
  type WebhookDeliveryState,
  type WebhookEndpoint,
} from '#domain';
import { EVENT_STORE, type EventStore, type LogEvent, type Subscription } from '#event-store';
import { READ_MODELS, type ReadModels } from '#read-models';
import { createProviderFetch, loadNodeName, type ProviderFetch } from '#identity';
import { AppClock } from '../config/app-clock.js';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';
import { PINO } from '../logging/pino.js';
import { Organizations } from '../organizations/organizations.service.js';
import { WebhookEndpoints } from './webhook-endpoints.service.js';
import { EndpointSender } from './endpoint-sender.js';
import type { SenderHost } from './sender-host.js';
import { WebhookSource } from './webhook-source.js';
import { entitlementsEtagOfText, trafficNow } from '../entitlements/organization-entitlements.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import { batchRequest, send, standardRequest, type SendOutcome, type WebhookPayload } from './webhook-sender.js';

/** To the receiver's last byte, connecting included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
const RECEIVER_ANSWER_MAX_BYTES = 64 * 1024;

const SYSTEM: CommandContext = newCommandContext('system');
/** The organizations' events and their members' own (sign-ins, factors, sessions) wake the senders. */
const WAKING_PREFIXES = [organizationStreamPrefix, userStreamPrefix, accountAttemptsStreamPrefix];
const MEMBER_WAKE_WAIT_MS = 5_000;

@Injectable()
export class WebhookDeliveries implements SenderHost, OnApplicationBootstrap, OnModuleDestroy {
  private readonly senders = new Map<string, EndpointSender>();
  /** Organization id → its endpoints' ids, for waking their senders. */
  private readonly byOrganization = new Map<string, Set<string>>();
  private subscription: Subscription | undefined;
  /** Only for a store without a stream index (EventStoreDB): the organizations' events, apart from the endpoints'. */
  private wakeUps: Subscription | undefined;
  private following = false;
  private readonly deliveryStates = new FoldedStateCache<WebhookDeliveryState>(10_000);
  private readonly flagTexts = new WeakMap<ExistingOrganization, Map<string, string>>();
  readonly sendingFetch: ProviderFetch;
  readonly log: Logger;
  readonly senderName: string;
  isClosing = false;

  constructor(
    @Inject(EVENT_STORE) readonly store: EventStore,
    readonly endpoints: WebhookEndpoints,
    readonly organizations: Organizations,
    readonly source: WebhookSource,
    readonly clock: AppClock,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    @Inject(CONFIG) config: Config,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    @Inject(PINO) pino: Logger,
  ) {
    this.log = pino.child({ component: 'webhooks' });
    this.sendingFetch = createProviderFetch({
      publicAddressesOnly: config.nodeEnv === 'production',
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      maxBytes: RECEIVER_ANSWER_MAX_BYTES,
      keepAlive: true,
    });
    this.senderName = runMode === 'server' ? loadNodeName(config.dataDir) : 'cli';
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.runMode !== 'server') return;
    const head = await this.store.headPosition();
    // The endpoints recorded so far, found through the stream index where the store has one, not by a scan of the log.
    const known =
      head === undefined || this.store.readLogByStream === undefined
        ? undefined
        : await this.organizationsWithEndpoints(head);
    for (const organizationId of known ?? []) await this.endpointsChanged(organizationId);
    this.subscription = this.store.subscribeToAll({
      ...(known === undefined || head === undefined ? {} : { fromPosition: head }),
      filter: {
        streamPrefixes:
          known === undefined ? [webhookEndpointsStreamPrefix] : [webhookEndpointsStreamPrefix, ...WAKING_PREFIXES],
      },
      onEvent: (event) => this.onLogEvent(event),
      // Without the index, the endpoints come from the log's beginning; the organizations' events only from now on.
      onCaughtUp: () => {
        if (known === undefined && !this.following) this.followOrganizations();
      },
      onError: (error) => this.stopped(error),
    });
  }

  private async organizationsWithEndpoints(head: bigint): Promise<Set<string>> {
    const found = new Set<string>();
    const readLogByStream = this.store.readLogByStream?.bind(this.store);
    for (let after: { streamId: string; revision: bigint } | undefined; readLogByStream !== undefined;) {
      const from = after === undefined ? {} : { after };
      const page = await readLogByStream({
        streamPrefix: webhookEndpointsStreamPrefix,
        toPosition: head,
        maxCount: 1_000,
        parts: [],
        ...from,
      });
      for (const event of page) found.add(event.streamId.slice(webhookEndpointsStreamPrefix.length));
      const last = page.at(-1);
      if (last === undefined || page.length < 1_000) break;
      after = { streamId: last.streamId, revision: last.revision };
    }
    return found;
  }

  private followOrganizations(): void {
    this.following = true;
    void this.store.headPosition().then((head) => {
      if (this.isClosing) return;
      this.wakeUps = this.store.subscribeToAll({
        ...(head === undefined ? {} : { fromPosition: head }),
        filter: { streamPrefixes: WAKING_PREFIXES },
        onEvent: (event) => this.onLogEvent(event),
        onError: (error) => this.stopped(error),
      });
      // Whatever was recorded before this subscription began is found by each sender's first look.
      for (const sender of this.senders.values()) sender.wake();
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.isClosing = true;
    await Promise.all([this.subscription?.close(), this.wakeUps?.close()]);
    await Promise.all([...this.senders.values()].map((sender) => sender.stop()));
  }

  loadDeliveries(endpointId: string): Promise<LoadedStream<WebhookDeliveryState>> {
    return loadStream(this.store, webhookDeliveriesDecider, endpointId, { cache: this.deliveryStates });
  }

  /** Decided first on what the sender read; a node that lost its claim meanwhile records nothing (false). */
  async record(
    endpointId: string,
    known: LoadedStream<WebhookDeliveryState>,
    command: WebhookDeliveryCommand,
  ): Promise<boolean> {
    const handled = await handleCommand(this.store, webhookDeliveriesDecider, endpointId, command, SYSTEM, {
      cache: this.deliveryStates,
      known,
    });
    return handled.appended.length > 0;
  }

  /**
   * One `webhook.test` event, sent now and outside the endpoint's queue (nothing of the history waits for it, and it is
   * not in the delivery log): the answer says what the receiver did. Sent to a disabled endpoint too, to try it first.
   */
  async sendTest(organizationId: string, endpointId: string): Promise<SendOutcome & { eventId: string }> {
    const endpoint = await this.endpoints.get(organizationId, endpointId);
    const now = this.clock.now();
    const eventId = `test_${randomUUID()}`;
    const payload: WebhookPayload = {
      type: 'webhook.test',
      timestamp: now.toISOString(),
      data: {
        organizationId,
        endpointId,
        description: 'A test event from Chorus: this endpoint receives the organization’s events.',
      },
    };
    const token = endpoint.format === 'standard' ? undefined : await this.endpoints.tokenOf(endpoint);
    const request =
      endpoint.format === 'standard'
        ? standardRequest(
            await this.endpoints.signingKeys(endpointId, signingGenerations(endpoint, now)),
            eventId,
            payload,
            now.getTime(),
          )
        : batchRequest(endpoint.format, token ?? '', [payload]);
    return { eventId, ...(await send(this.sendingFetch, endpoint.url, request, () => this.clock.now().getTime())) };
  }

  entitlementsChange(
    organizationId: string,
    before: OrganizationState,
    after: OrganizationState,
  ): { etag: string; changed: string[] } | undefined {
    if (!after.exists) return undefined;
    const flagsAfter = this.flagsOf(organizationId, after);
    const flagsBefore = before.exists ? this.flagsOf(organizationId, before) : new Map<string, string>();
    const changed = [...flagsAfter].filter(([key, flag]) => flag !== flagsBefore.get(key)).map(([key]) => key);
    // The same text OFREP's ETag hashes: JSON.stringify of the [key, flag] pairs.
    const etag = () =>
      entitlementsEtagOfText(`[${[...flagsAfter].map(([key, flag]) => `[${JSON.stringify(key)},${flag}]`).join(',')}]`);
    return changed.length === 0 ? undefined : { etag: etag(), changed };
  }

  /**
   * Each flag as JSON, once per folded state (a sender compares each state with the one before, which it saw last
   * time). Traffic is this period's as counted when the state is first seen, on both sides of a change: only what the
   * organization's own event changed counts.
   */
  private flagsOf(organizationId: string, state: ExistingOrganization): Map<string, string> {
    const known = this.flagTexts.get(state);
    if (known !== undefined) return known;
    const trafficThisPeriod = trafficNow(this.readModels, organizationId, state);
    const flags = organizationEntitlements(state, this.catalogue, { users: state.members.size, trafficThisPeriod });
    const texts = new Map([...flags].map(([key, flag]): [string, string] => [key, JSON.stringify(flag)]));
    this.flagTexts.set(state, texts);
    return texts;
  }

  async disable(organizationId: string, endpointId: string, reason: string): Promise<void> {
    const disabled = {
      type: 'DisableWebhookEndpoint',
      data: { endpointId, reason, at: this.clock.now().toISOString() },
    } as const;
    await handleCommand(this.store, webhookEndpointsDecider, organizationId, disabled, SYSTEM);
    this.log.warn({ organizationId, endpointId, reason }, 'Webhook endpoint disabled');
  }

  /** Never throws: a throw would stop the subscription for good; the organization's next change looks again. */
  private async endpointsChanged(organizationId: string): Promise<void> {
    let endpoints: readonly WebhookEndpoint[];
    try {
      endpoints = await this.endpoints.list(organizationId);
    } catch (error) {
      this.log.warn(
        { err: error, organizationId },
        'Webhook endpoints could not be read: their senders go on as they were',
      );
      return;
    }
    const ids = new Set(endpoints.map((endpoint) => endpoint.endpointId));
    for (const id of this.byOrganization.get(organizationId) ?? []) {
      if (!ids.has(id)) {
        void this.senders.get(id)?.stop();
        this.senders.delete(id);
      }
    }
    this.byOrganization.set(organizationId, ids);
    for (const endpoint of endpoints) {
      const sender = this.senders.get(endpoint.endpointId) ?? new EndpointSender(this, organizationId, endpoint);
      this.senders.set(endpoint.endpointId, sender);
      sender.update(endpoint);
    }
  }

  private onLogEvent(event: LogEvent): Promise<void> | void {
    if (event.streamId.startsWith(webhookEndpointsStreamPrefix))
      return this.endpointsChanged(event.streamId.slice(webhookEndpointsStreamPrefix.length));
    if (event.streamId.startsWith(organizationStreamPrefix))
      return this.wakeOrganization(event.streamId.slice(organizationStreamPrefix.length));
    const member = memberActivityOf(event.streamId, event.type, event.data);
    if (member !== undefined) void this.wakeOrganizationsOf(member.userId, event.position);
  }

  /**
   * Once this node's index holds the member's event: the organizations it was a member of then are the ones to wake.
   */
  private async wakeOrganizationsOf(userId: string, position: bigint): Promise<void> {
    await this.readModels.waitForPosition(position, MEMBER_WAKE_WAIT_MS);
    for (const organizationId of this.readModels.memberSecurity.organizationsOfPerson(userId))
      this.wakeOrganization(organizationId);
  }

  private wakeOrganization(organizationId: string): void {
    for (const id of this.byOrganization.get(organizationId) ?? []) this.senders.get(id)?.wake();
  }

  private stopped(error: Error): void {
    if (!this.isClosing)
      this.log.error({ err: error }, 'Webhook deliveries stopped: they go on after a restart, from where they were');
  }
}
