// One endpoint's sender on one node (webhook-deliveries.ts runs one per endpoint): it sends only while its node holds
// the endpoint's claim, one event (or one batch) at a time, each recorded before the next is sent.
import type { Logger } from 'pino';
import type { LoadedStream } from '#application';
import {
  namesIn,
  organizationStream,
  recordedEventSentence,
  signingGenerations,
  wantsWebhookEvent,
  webhookEventOf,
  webhookGivenUp,
  webhookSenderDuty,
  type OrganizationEvent,
  type OrganizationState,
  type TriedDelivery,
  type WebhookDeliveryCommand,
  type WebhookDeliveryState,
  type WebhookEndpoint,
} from '#domain';
import type { EventStore, RecordedEvent } from '#event-store';
import type { ProviderFetch } from '#identity';
import type { IdentityClock } from '../config/app-clock.js';
import type { Organizations } from '../organizations/organizations.js';
import type { WebhookEndpoints } from './webhook-endpoints.service.js';
import { batchRequest, send, standardRequest, type Request, type SendOutcome, type WebhookPayload } from './webhook-sender.js';

/** Read from the organization's history at a time. */
const PAGE = 100;
/** Events in one request of a batching format. */
const BATCH = 50;
/**
 * How much one record covers: a standard endpoint's deliveries are recorded a run at a time, not one by one. A node
 * that dies mid-run sends the run's events again (at least once; `webhook-id` lets a receiver drop them); a run ends
 * well inside the 30 s claim, so normally no other node sends them meanwhile.
 */
export const WEBHOOK_RUN = { deliveries: 50, ms: 1_000 };
/** After an unexpected error (the store unreachable), before the sender looks again. */
const ERROR_PAUSE_MS = 1_000;

/** What every sender of a node shares. */
export interface SenderHost {
  readonly store: EventStore;
  readonly endpoints: WebhookEndpoints;
  readonly organizations: Organizations;
  readonly clock: IdentityClock;
  readonly senderName: string;
  readonly sendingFetch: ProviderFetch;
  readonly log: Logger;
  readonly isClosing: boolean;
  loadDeliveries(endpointId: string): Promise<LoadedStream<WebhookDeliveryState>>;
  record(endpointId: string, known: LoadedStream<WebhookDeliveryState>, command: WebhookDeliveryCommand): Promise<boolean>;
  disable(organizationId: string, endpointId: string, reason: string): Promise<void>;
}

type Step = { kind: 'more' } | { kind: 'idle' } | { kind: 'wait'; until: number };

/** An event as a receiver sees it; undefined for one the catalogue leaves out. */
export function payloadOf(event: RecordedEvent, organizationId: string, description: string): WebhookPayload | undefined {
  const webhook = webhookEventOf(event.type, event.data);
  if (webhook === undefined) return undefined;
  const { actor, correlationId } = event.metadata;
  const data = {
    organizationId,
    position: jsonNumber(event.position),
    revision: jsonNumber(event.revision),
    actor,
    correlationId,
    event: event.type,
    description,
    ...webhook.data,
  };
  return { type: webhook.type, timestamp: event.recordedAt, data };
}

const jsonNumber = (value: bigint): number | string => (value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString());

/** One endpoint's sending loop on this node; it sends only while its node holds the endpoint's claim. */
export class EndpointSender {
  private woken = true;
  private wakeUp: (() => void) | undefined;
  private cancelWait: (() => void) | undefined;
  private folded: { revision: bigint; state: OrganizationState } | undefined;
  private stopping = false;
  private readonly running: Promise<void>;

  constructor(
    private readonly deliveries: SenderHost,
    private readonly organizationId: string,
    private endpoint: WebhookEndpoint,
  ) {
    this.running = this.loop();
  }

  update(endpoint: WebhookEndpoint): void {
    this.endpoint = endpoint;
    this.wake();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopping && !this.deliveries.isClosing) {
      if (!this.woken) await new Promise<void>((resolve) => (this.wakeUp = resolve));
      this.wakeUp = undefined;
      this.cancelWait?.();
      if (this.stopping || this.deliveries.isClosing) return;
      this.woken = false;
      try {
        const step = await this.step();
        // A step can resolve without any I/O of its own (all in cache): let timers and I/O in before the next one.
        if (step.kind === 'more') {
          this.woken = true;
          await new Promise((resolve) => setImmediate(resolve));
        }
        if (step.kind === 'wait') this.wakeAt(step.until);
      } catch (error) {
        this.deliveries.log.warn({ err: error, endpointId: this.endpoint.endpointId }, 'Webhook sender: trying again in a moment');
        this.wakeAt(this.deliveries.clock.now().getTime() + ERROR_PAUSE_MS);
      }
    }
  }

  /** A test's pinned clock is slept on, so that it moves time instead of waiting; a wake that comes early only looks again. */
  private wakeAt(until: number): void {
    const clock = this.deliveries.clock;
    const milliseconds = Math.max(until - clock.now().getTime(), 0);
    if (!clock.pinned) {
      const timer = setTimeout(() => this.wake(), milliseconds);
      timer.unref();
      this.cancelWait = () => clearTimeout(timer);
      return;
    }
    let cancelled = false;
    this.cancelWait = () => (cancelled = true);
    void clock.sleep(milliseconds).then(() => {
      if (!cancelled) this.wake();
    });
  }

  private async step(): Promise<Step> {
    const endpoint = this.endpoint;
    if (!endpoint.enabled) return { kind: 'idle' };
    const { endpointId } = endpoint;
    const loaded = await this.deliveries.loadDeliveries(endpointId);
    const state = loaded.state;
    const now = this.deliveries.clock.now();
    const sender = this.deliveries.senderName;
    const at = now;
    const replay = endpoint.replay;
    const replaying = replay !== null && replay.replayId !== state.replayId;
    if (!replaying && state.failing !== null && Date.parse(state.failing.nextAttemptAt) > now.getTime()) return { kind: 'wait', until: Date.parse(state.failing.nextAttemptAt) };
    const after = replaying ? replay.afterRevision : (state.doneUpTo ?? endpoint.startAfter);
    const page = await this.deliveries.store.readStream(organizationStream(this.organizationId), { fromRevision: after + 1n, maxCount: PAGE });
    const events = page.found ? page.events : [];
    if (events.length === 0 && !replaying) return { kind: 'idle' };
    // Only now that there is something to do: a claim is an append, and an idle endpoint makes none.
    const duty = webhookSenderDuty(state, sender, now);
    if (duty.kind === 'theirs') return { kind: 'wait', until: duty.until.getTime() };
    if (duty.kind === 'claim') {
      await this.deliveries.record(endpointId, loaded, { type: 'ClaimWebhookDeliveries', data: { sender, at } });
      return { kind: 'more' };
    }
    if (replaying) {
      await this.deliveries.record(endpointId, loaded, { type: 'StartWebhookReplay', data: { replayId: replay.replayId, afterRevision: replay.afterRevision, sender, at } });
      return { kind: 'more' };
    }
    if (webhookGivenUp(state, now)) {
      await this.deliveries.disable(this.organizationId, endpointId, 'Every delivery failed for 3 days: the endpoint is disabled.');
      return { kind: 'idle' };
    }
    const wanted = events.filter((event) => {
      const webhook = webhookEventOf(event.type, event.data);
      return webhook !== undefined && wantsWebhookEvent(endpoint.events, webhook.type);
    });
    const first = wanted[0];
    if (first !== events[0]) {
      // What comes before the first event it takes (or the whole page) is passed over in one record.
      const passed = first === undefined ? events.at(-1) : events[events.indexOf(first) - 1];
      if (passed === undefined) return { kind: 'idle' };
      await this.deliveries.record(endpointId, loaded, { type: 'SkipWebhookEvents', data: { upToRevision: passed.revision, sender, at } });
      return { kind: 'more' };
    }
    return this.deliver(endpoint, loaded, endpoint.format === 'standard' ? wanted : wanted.slice(0, BATCH));
  }

  /**
   * A standard endpoint's events go one request at a time, each sent once the one before was answered, and the whole
   * run is recorded in one append (a batching format's run is its one request). WEBHOOK_RUN bounds what a crash sends again.
   */
  private async deliver(endpoint: WebhookEndpoint, loaded: LoadedStream<WebhookDeliveryState>, events: readonly RecordedEvent[]): Promise<Step> {
    const clock = this.deliveries.clock;
    const startedAt = clock.now().getTime();
    const tried: TriedDelivery[] = [];
    let gone: SendOutcome | undefined;
    const runs = endpoint.format === 'standard' ? events.map((event) => [event]) : [events];
    for (const batch of runs) {
      const last = batch.at(-1);
      if (last === undefined || tried.length >= WEBHOOK_RUN.deliveries || clock.now().getTime() - startedAt >= WEBHOOK_RUN.ms) break;
      const payloads: WebhookPayload[] = [];
      for (const event of batch) {
        const description = recordedEventSentence(event.type, event.data, namesIn(await this.stateBefore(event)));
        const payload = payloadOf(event, this.organizationId, description);
        if (payload !== undefined) payloads.push(payload);
      }
      const request = await this.request(endpoint, batch, payloads);
      // Deleted meanwhile: its secrets are gone, and so is it (the registry stops this sender).
      if (request === undefined) break;
      const outcome = await send(this.deliveries.sendingFetch, endpoint.url, request, () => clock.now().getTime());
      const attempt = {
        revision: last.revision.toString(),
        position: last.position.toString(),
        eventId: last.id,
        eventType: payloads.at(-1)?.type ?? last.type,
        ...(endpoint.format === 'standard' ? {} : { count: batch.length }),
        status: outcome.status,
        ms: outcome.ms,
        excerpt: outcome.excerpt,
      };
      tried.push({ attempt, ok: outcome.ok, reason: outcome.reason, at: clock.now() });
      if (!outcome.ok) {
        if (outcome.gone) gone = outcome;
        break;
      }
    }
    if (tried.length === 0) return { kind: 'idle' };
    const sender = this.deliveries.senderName;
    const recorded = await this.deliveries.record(endpoint.endpointId, loaded, { type: 'RecordWebhookAttempts', data: { tried, sender, at: clock.now() } });
    if (recorded && gone !== undefined) await this.deliveries.disable(this.organizationId, endpoint.endpointId, gone.reason);
    return { kind: 'more' };
  }

  private async request(endpoint: WebhookEndpoint, batch: readonly RecordedEvent[], payloads: readonly WebhookPayload[]): Promise<Request | undefined> {
    const now = this.deliveries.clock.now();
    if (endpoint.format === 'standard') {
      const [event] = batch;
      const [payload] = payloads;
      const keys = await this.deliveries.endpoints.signingKeys(endpoint.endpointId, signingGenerations(endpoint, now));
      return event === undefined || payload === undefined || keys.length === 0 ? undefined : standardRequest(keys, event.id, payload, now.getTime());
    }
    const token = await this.deliveries.endpoints.tokenOf(endpoint);
    return token === undefined ? undefined : batchRequest(endpoint.format, token, payloads);
  }

  /** The organization just before `event`, for the names its sentence needs (a removed member's address): folded as the sender goes. */
  private async stateBefore(event: RecordedEvent): Promise<OrganizationState> {
    const decider = this.deliveries.organizations.decider;
    const wanted = event.revision - 1n;
    if (this.folded === undefined || this.folded.revision > wanted) this.folded = { revision: -1n, state: decider.initialState };
    while (this.folded.revision < wanted) {
      const fromRevision = this.folded.revision + 1n;
      const maxCount = Math.min(1_000, Number(wanted - this.folded.revision));
      const page = await this.deliveries.store.readStream(organizationStream(this.organizationId), { fromRevision, maxCount });
      const read = page.found ? page.events : [];
      if (read.length === 0) break;
      const readEvent = decider.read ?? ((stored: RecordedEvent) => ({ type: stored.type, data: stored.data }) as OrganizationEvent);
      for (const stored of read) this.folded = { revision: stored.revision, state: decider.evolve(this.folded.state, readEvent(stored)) };
    }
    return this.folded.state;
  }
}
