// Every node runs a sender per endpoint; the deliveries stream's claim lets one of them send, in the order of the
// organization's history, each event recorded delivered before the next is sent (docs/webhooks.md, Delivery).
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { FoldedStateCache, handleCommand, loadStream, newCommandContext, type CommandContext, type LoadedStream } from '#application';
import { CONFIG, type Config } from '#config';
import {
  organizationStreamPrefix,
  webhookDeliveriesDecider,
  webhookEndpointsDecider,
  webhookEndpointsStreamPrefix,
  type WebhookDeliveryCommand,
  type WebhookDeliveryState,
  type WebhookEndpoint,
} from '#domain';
import { EVENT_STORE, WrongExpectedRevisionError, type EventStore, type Subscription } from '#event-store';
import { createProviderFetch, loadNodeName, type ProviderFetch } from '#identity';
import { IdentityClock } from '../config/app-clock.js';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';
import { PINO } from '../logging/pino.js';
import { Organizations } from '../organizations/organizations.js';
import { WebhookEndpoints } from './webhook-endpoints.service.js';
import { EndpointSender, type SenderHost } from './endpoint-sender.js';

/** To the receiver's last byte, connecting included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
const RECEIVER_ANSWER_MAX_BYTES = 64 * 1024;

const SYSTEM: CommandContext = newCommandContext('system');


@Injectable()
export class WebhookDeliveries implements SenderHost, OnApplicationBootstrap, OnModuleDestroy {
  private readonly senders = new Map<string, EndpointSender>();
  /** Organization id → its endpoints' ids, for waking their senders. */
  private readonly byOrganization = new Map<string, Set<string>>();
  private readonly subscriptions: Subscription[] = [];
  private readonly deliveryStates = new FoldedStateCache<WebhookDeliveryState>(10_000);
  private readonly fetch: ProviderFetch;
  private readonly logger: Logger;
  private readonly sender: string;
  private closing = false;

  constructor(
    @Inject(EVENT_STORE) readonly store: EventStore,
    readonly endpoints: WebhookEndpoints,
    readonly organizations: Organizations,
    readonly clock: IdentityClock,
    @Inject(CONFIG) config: Config,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    @Inject(PINO) pino: Logger,
  ) {
    this.logger = pino.child({ component: 'webhooks' });
    this.fetch = createProviderFetch({ publicAddressesOnly: config.nodeEnv === 'production', timeoutMs: WEBHOOK_TIMEOUT_MS, maxBytes: RECEIVER_ANSWER_MAX_BYTES });
    this.sender = runMode === 'server' ? loadNodeName(config.dataDir) : 'cli';
  }

  onApplicationBootstrap(): void {
    if (this.runMode !== 'server') return;
    // Endpoints from the beginning (there are few of their events); the organizations' events from now on only wake.
    this.subscriptions.push(
      this.store.subscribeToAll({
        filter: { streamPrefixes: [webhookEndpointsStreamPrefix] },
        onEvent: (event) => this.endpointsChanged(event.streamId.slice(webhookEndpointsStreamPrefix.length)),
        onError: (error) => this.stopped(error),
      }),
    );
    void this.store.headPosition().then((head) => {
      if (this.closing) return;
      this.subscriptions.push(
        this.store.subscribeToAll({
          ...(head === undefined ? {} : { fromPosition: head }),
          filter: { streamPrefixes: [organizationStreamPrefix] },
          onEvent: (event) => this.wakeOrganization(event.streamId.slice(organizationStreamPrefix.length)),
          onError: (error) => this.stopped(error),
        }),
      );
      // Whatever was recorded before this subscription began is found by each sender's first look.
      for (const sender of this.senders.values()) sender.wake();
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    await Promise.all(this.subscriptions.map((subscription) => subscription.close()));
    await Promise.all([...this.senders.values()].map((sender) => sender.stop()));
  }

  get senderName(): string {
    return this.sender;
  }

  get sendingFetch(): ProviderFetch {
    return this.fetch;
  }

  get log(): Logger {
    return this.logger;
  }

  get isClosing(): boolean {
    return this.closing;
  }

  loadDeliveries(endpointId: string): Promise<LoadedStream<WebhookDeliveryState>> {
    return loadStream(this.store, webhookDeliveriesDecider, endpointId, { cache: this.deliveryStates });
  }

  /** Appended only at the revision the sender read: a node that lost its claim records nothing. */
  async record(endpointId: string, known: LoadedStream<WebhookDeliveryState>, command: WebhookDeliveryCommand): Promise<boolean> {
    try {
      await handleCommand(this.store, webhookDeliveriesDecider, endpointId, command, SYSTEM, { cache: this.deliveryStates, known, maxAttempts: 1 });
      return true;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return false;
      throw error;
    }
  }

  async disable(organizationId: string, endpointId: string, reason: string): Promise<void> {
    const disabled = { type: 'DisableWebhookEndpoint', data: { endpointId, reason, at: this.clock.now().toISOString() } } as const;
    await handleCommand(this.store, webhookEndpointsDecider, organizationId, disabled, SYSTEM);
    this.logger.warn({ organizationId, endpointId, reason }, 'Webhook endpoint disabled');
  }

  /** Never throws: a throw would stop the subscription for good; the organization's next change looks again. */
  private async endpointsChanged(organizationId: string): Promise<void> {
    let endpoints: readonly WebhookEndpoint[];
    try {
      endpoints = await this.endpoints.list(organizationId);
    } catch (error) {
      this.logger.warn({ err: error, organizationId }, 'Webhook endpoints could not be read: their senders go on as they were');
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

  private wakeOrganization(organizationId: string): void {
    for (const id of this.byOrganization.get(organizationId) ?? []) this.senders.get(id)?.wake();
  }

  private stopped(error: Error): void {
    if (!this.closing) this.logger.error({ err: error }, 'Webhook deliveries stopped: they go on after a restart, from where they were');
  }
}
