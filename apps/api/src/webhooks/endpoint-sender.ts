// One endpoint's sender on one node (webhook-deliveries.ts runs one per endpoint): it sends only while its node holds
// the endpoint's claim, in the log's order (webhook-source.ts), a run at a time, each run recorded before the next.
import type { LoadedStream } from '#application';
import {
  cursorData,
  memberActivitySentence,
  namesIn,
  organizationStream,
  recordedEventSentence,
  signingGenerations,
  wantsWebhookEvent,
  webhookGivenUp,
  webhookSenderDuty,
  type OrganizationEvent,
  type OrganizationState,
  type TriedDelivery,
  type WebhookDeliveryState,
  type RecordNames,
  type WebhookCursor,
  type WebhookEndpoint,
  type WebhookEventType,
} from '#domain';
import type { RecordedEvent } from '#event-store';
import type { SenderHost } from './sender-host.js';
import type { PendingEvent } from './webhook-source.js';
import {
  BATCH,
  batchRequest,
  ENTITLEMENTS_ID_SUFFIX,
  payloadFields,
  send,
  standardRequest,
  wholeBatch,
  type Outgoing,
  type Request,
  type SendOutcome,
  type WebhookPayload,
} from './webhook-sender.js';

/** Read from the history at a time. */
const PAGE = 100;
/**
 * How much one record covers: a standard endpoint's deliveries are recorded a run at a time, not one by one. A node
 * that dies mid-run sends the run's events again (at least once; `webhook-id` lets a receiver drop them); a run ends
 * well inside the 30 s claim, so normally no other node sends them meanwhile.
 */
export const WEBHOOK_RUN = { deliveries: 50, ms: 1_000 };
/** While this node's index has not reached the organization's next event. */
const INDEX_PAUSE_MS = 100;
/** After an unexpected error (the store unreachable), before the sender looks again. */
const ERROR_PAUSE_MS = 1_000;

/** `held`: waiting for this node's read models, not for a time of the domain, so on a real timer even in tests. */
type Step = { kind: 'more' } | { kind: 'idle' } | { kind: 'wait'; until: number } | { kind: 'held' };

/** One endpoint's sending loop on this node; it sends only while its node holds the endpoint's claim. */
export class EndpointSender {
  private woken = true;
  private wakeUp: (() => void) | undefined;
  private cancelWait: (() => void) | undefined;
  private folded: { revision: bigint; state: OrganizationState } | undefined;
  /** The organization where the last step began: a run cut short starts again from there, not from the beginning. */
  private anchor: { revision: bigint; state: OrganizationState } | undefined;
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
        if (step.kind === 'held') {
          const timer = setTimeout(() => this.wake(), INDEX_PAUSE_MS);
          timer.unref();
          this.cancelWait = () => clearTimeout(timer);
        }
      } catch (error) {
        this.deliveries.log.warn(
          { err: error, endpointId: this.endpoint.endpointId },
          'Webhook sender: trying again in a moment',
        );
        this.wakeAt(this.deliveries.clock.now().getTime() + ERROR_PAUSE_MS);
      }
    }
  }

  /**
   * A test's pinned clock is slept on, so that it moves time instead of waiting; a wake that comes early only looks
   * again.
   */
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
    if (!replaying && state.failing !== null && Date.parse(state.failing.nextAttemptAt) > now.getTime())
      return { kind: 'wait', until: Date.parse(state.failing.nextAttemptAt) };
    const after = replaying ? replay.after : (state.doneUpTo ?? endpoint.startAfter);
    const { items: pending, held } = await this.deliveries.source.pending(this.organizationId, after, PAGE);
    if (pending.length === 0 && held) return { kind: 'held' };
    if (pending.length === 0 && !replaying) return { kind: 'idle' };
    // Only now that there is something to do: a claim is an append, and an idle endpoint makes none.
    const duty = webhookSenderDuty(state, sender, now);
    if (duty.kind === 'theirs') return { kind: 'wait', until: duty.until.getTime() };
    if (duty.kind === 'claim') {
      await this.deliveries.record(endpointId, loaded, { type: 'ClaimWebhookDeliveries', data: { sender, at } });
      return { kind: 'more' };
    }
    if (replaying) {
      await this.deliveries.record(endpointId, loaded, {
        type: 'StartWebhookReplay',
        data: { replayId: replay.replayId, after: replay.after, sender, at },
      });
      return { kind: 'more' };
    }
    if (webhookGivenUp(state, now)) {
      await this.deliveries.disable(
        this.organizationId,
        endpointId,
        'Every delivery failed for 3 days: the endpoint is disabled.',
      );
      return { kind: 'idle' };
    }
    const outgoing = await this.prepare(endpoint, after, pending);
    const firstIndex = outgoing.findIndex((item) => item.payload !== undefined);
    if (firstIndex !== 0) {
      // What comes before the first event it takes (or the whole page) is passed over in one record.
      const passed = firstIndex === -1 ? outgoing.at(-1) : outgoing[firstIndex - 1];
      if (passed !== undefined && passed.upTo.position > after.position) {
        await this.deliveries.record(endpointId, loaded, {
          type: 'SkipWebhookEvents',
          data: { upTo: passed.upTo, sender, at },
        });
        return { kind: 'more' };
      }
      if (firstIndex === -1) return { kind: 'idle' };
    }
    const wanted = outgoing.slice(firstIndex).filter((item) => item.payload !== undefined);
    return this.deliver(endpoint, loaded, endpoint.format === 'standard' ? wanted : wholeBatch(wanted));
  }

  /**
   * Each event the endpoint takes, with its body, as many as one run or batch sends; an organization event that changed
   * the entitlements is followed by its `entitlements.changed` when the endpoint takes that, and then moves the cursor
   * only with it, so the two are sent together or again together. Folded forward once: sentences name people as they
   * were.
   */
  private async prepare(
    endpoint: WebhookEndpoint,
    after: WebhookCursor,
    items: readonly PendingEvent[],
  ): Promise<Outgoing[]> {
    const takes = (type: WebhookEventType | undefined) =>
      type !== undefined && wantsWebhookEvent(endpoint.events, type);
    const withEntitlements = takes('entitlements.changed');
    const outgoing: Outgoing[] = [];
    let cursorBefore = after;
    await this.stateAt(after.revision);
    this.anchor = this.folded;
    const room = endpoint.format === 'standard' ? WEBHOOK_RUN.deliveries : BATCH;
    let taken = 0;
    for (const item of items) {
      if (taken >= room) break;
      const before = await this.stateAt(item.revisionBefore);
      const payload = takes(item.webhook?.type) ? this.payloadOf(item, namesIn(before)) : undefined;
      const organizationEvent = withEntitlements && item.member === undefined;
      const change = organizationEvent
        ? this.deliveries.entitlementsChange(this.organizationId, before, await this.stateAt(item.event.revision))
        : undefined;
      if (payload !== undefined) taken += 1;
      if (change === undefined) {
        outgoing.push({ id: item.event.id, event: item.event, payload, upTo: item.upTo, pairedWithNext: false });
      } else {
        outgoing.push({ id: item.event.id, event: item.event, payload, upTo: cursorBefore, pairedWithNext: true });
        const entitlements = { type: 'entitlements.changed' as const, data: change };
        const description = `Entitlements changed: ${change.changed.join(', ')}`;
        const body = payloadFields(item.event, this.organizationId, entitlements, description);
        outgoing.push({
          id: `${item.event.id}${ENTITLEMENTS_ID_SUFFIX}`,
          event: item.event,
          payload: body,
          upTo: item.upTo,
          pairedWithNext: false,
        });
        taken += 1;
      }
      cursorBefore = item.upTo;
    }
    return outgoing;
  }

  /**
   * A standard endpoint's events go one request at a time, each sent once the one before was answered, and the whole
   * run is recorded in one append (a batching format's run is its one request). WEBHOOK_RUN bounds what a crash sends
   * again.
   */
  private async deliver(
    endpoint: WebhookEndpoint,
    loaded: LoadedStream<WebhookDeliveryState>,
    items: readonly Outgoing[],
  ): Promise<Step> {
    const clock = this.deliveries.clock;
    const startedAt = clock.now().getTime();
    const tried: TriedDelivery[] = [];
    let gone: SendOutcome | undefined;
    const runs = endpoint.format === 'standard' ? items.map((item) => [item]) : [items];
    let sent: Outgoing | undefined;
    for (const batch of runs) {
      const last = batch.at(-1);
      if (last === undefined) break;
      // A run ends only where the cursor moves: never between an event and its entitlements.changed.
      if (
        (tried.length >= WEBHOOK_RUN.deliveries || clock.now().getTime() - startedAt >= WEBHOOK_RUN.ms) &&
        sent?.pairedWithNext !== true
      )
        break;
      sent = last;
      const payloads = batch.flatMap((item) => (item.payload === undefined ? [] : [item.payload]));
      const request = await this.request(endpoint, last.id, payloads);
      // Deleted meanwhile: its secrets are gone, and so is it (the registry stops this sender).
      if (request === undefined) break;
      const outcome = await send(this.deliveries.sendingFetch, endpoint.url, request, () => clock.now().getTime());
      const attempt = {
        revision: last.event.revision.toString(),
        position: last.event.position.toString(),
        eventId: last.id,
        eventType: last.payload?.type ?? last.event.type,
        ...(endpoint.format === 'standard' ? {} : { count: batch.length }),
        upTo: cursorData(last.upTo),
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
    const recorded = await this.deliveries.record(endpoint.endpointId, loaded, {
      type: 'RecordWebhookAttempts',
      data: { tried, sender, at: clock.now() },
    });
    if (recorded && gone !== undefined)
      await this.deliveries.disable(this.organizationId, endpoint.endpointId, gone.reason);
    return { kind: 'more' };
  }

  /** With the history's sentence, which names people as the organization knew them just before. */
  private payloadOf({ event, webhook, member }: PendingEvent, names: RecordNames): WebhookPayload | undefined {
    if (webhook === undefined) return undefined;
    if (member === undefined)
      return payloadFields(event, this.organizationId, webhook, recordedEventSentence(event.type, event.data, names));
    const description = memberActivitySentence(webhook, names.memberEmail(member) ?? 'a member');
    return payloadFields(
      event,
      this.organizationId,
      { type: webhook.type, data: { userId: member, ...webhook.data } },
      description,
    );
  }

  /** `id`: the standard format's `webhook-id`. */
  private async request(
    endpoint: WebhookEndpoint,
    id: string,
    payloads: readonly WebhookPayload[],
  ): Promise<Request | undefined> {
    const now = this.deliveries.clock.now();
    if (endpoint.format === 'standard') {
      const [payload] = payloads;
      const keys = await this.deliveries.endpoints.signingKeys(endpoint.endpointId, signingGenerations(endpoint, now));
      return payload === undefined || keys.length === 0 ? undefined : standardRequest(keys, id, payload, now.getTime());
    }
    const token = await this.deliveries.endpoints.tokenOf(endpoint);
    return token === undefined ? undefined : batchRequest(endpoint.format, token, payloads);
  }

  /**
   * The organization at `wanted`, for the names a sentence needs (a removed member's address): folded as the sender
   * goes.
   */
  private async stateAt(wanted: bigint): Promise<OrganizationState> {
    const decider = this.deliveries.organizations.decider;
    if (this.folded === undefined || this.folded.revision > wanted) {
      this.folded =
        this.anchor !== undefined && this.anchor.revision <= wanted
          ? this.anchor
          : { revision: -1n, state: decider.initialState };
    }
    while (this.folded.revision < wanted) {
      const fromRevision = this.folded.revision + 1n;
      const maxCount = Math.min(1_000, Number(wanted - this.folded.revision));
      const page = await this.deliveries.store.readStream(organizationStream(this.organizationId), {
        fromRevision,
        maxCount,
      });
      const read = page.found ? page.events : [];
      if (read.length === 0) break;
      const readEvent =
        decider.read ?? ((stored: RecordedEvent) => ({ type: stored.type, data: stored.data }) as OrganizationEvent);
      for (const stored of read)
        this.folded = { revision: stored.revision, state: decider.evolve(this.folded.state, readEvent(stored)) };
    }
    return this.folded.state;
  }
}
