// Each node learns of entitlement changes from the shared store, not from the node that made them: it
// follows the organization streams, and once its own read model has an event, compares the organization's
// entitlements (their ETag) with what it last saw. A change on any node reaches subscribers on every node.
// Traffic reports (their own streams) move limits.trafficPerMonth with every report: those changes are sent at
// most once per organization per TRAFFIC_CHANGE_INTERVAL_MS, timed on the injectable clock.
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { organizationStreamPrefix, trafficStreamPrefix } from '#domain';
import { EVENT_STORE, type EventStore, type Subscription } from '#event-store';
import { READ_MODELS, ReadModels } from '#read-models';
import { PINO } from '../logging/pino.js';
import { AppClock } from '../config/app-clock.js';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';
import { OrganizationEntitlements } from './organization-entitlements.js';

export type EntitlementChange = { organizationId: string; position: bigint; etag: string };

/** Changes kept for subscribers that reconnect (Last-Event-ID); one from before them answers `reset`. */
export const KEPT_CHANGES = 10_000;
/** How long a batch waits for this node's read model before it is compared anyway. */
const READ_MODEL_WAIT_MS = 5_000;
/** A change that only traffic made is sent at most once per organization in this long (the reports coalesced). */
export const TRAFFIC_CHANGE_INTERVAL_MS = 1_000;

/** An organization's newest event in a batch, and whether only traffic reports made it. */
type Pending = { position: bigint; trafficOnly: boolean };

@Injectable()
export class EntitlementChanges implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription: Subscription | undefined;
  /** The position this node started following from: a client that saw nothing after it must start again. */
  private startedAfter: bigint | undefined = undefined;
  private started = false;
  private readonly lastEtag = new Map<string, string>();
  private readonly kept: EntitlementChange[] = [];
  private pending = new Map<string, Pending>();
  /** When each organization's last change was sent (the clock's milliseconds). */
  private readonly sentAt = new Map<string, number>();
  /** Traffic changes waiting for their organization's interval to pass: the newest position seen. */
  private readonly held = new Map<string, bigint>();
  /** The newest position compared: a held change is sent with it, so that ids only grow. */
  private newest = 0n;
  private closed = false;
  private draining: Promise<void> | undefined;
  private readonly listeners = new Set<(change: EntitlementChange) => void>();
  private readonly logger: Logger;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly entitlements: OrganizationEntitlements,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    @Inject(PINO) pino: Logger,
    private readonly clock: AppClock,
  ) {
    this.logger = pino.child({ component: 'entitlement-changes' });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.runMode !== 'server') return;
    this.startedAfter = await this.store.headPosition();
    this.started = true;
    this.subscription = this.store.subscribeToAll({
      ...(this.startedAfter === undefined ? {} : { fromPosition: this.startedAfter }),
      filter: { streamPrefixes: [organizationStreamPrefix, trafficStreamPrefix] },
      onEvent: (event) => {
        const traffic = event.streamId.startsWith(trafficStreamPrefix);
        const organizationId = traffic
          ? (event.data as { organizationId?: unknown }).organizationId
          : event.streamId.slice(organizationStreamPrefix.length);
        if (typeof organizationId !== 'string') return;
        const trafficOnly = traffic && (this.pending.get(organizationId)?.trafficOnly ?? true);
        this.pending.set(organizationId, { position: event.position, trafficOnly });
        this.draining ??= this.drain();
      },
      onError: (error) =>
        this.logger.error(
          { err: error },
          'Entitlement changes stopped: subscribers get no more changes until a restart',
        ),
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    await this.subscription?.close();
    await this.draining;
    this.listeners.clear();
  }

  /** Calls `listener` with every change from now on; answers how to stop. */
  listen(listener: (change: EntitlementChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The changes after `position`, or 'reset' when this node cannot tell what changed since (too old, or from before it
   * started).
   */
  since(position: bigint): EntitlementChange[] | 'reset' {
    const oldestKept = this.kept[0]?.position;
    const knownFrom = oldestKept !== undefined && this.kept.length >= KEPT_CHANGES ? oldestKept : this.startedAfter;
    if (!this.started || (knownFrom !== undefined && position < knownFrom)) return 'reset';
    return this.kept.filter((change) => change.position > position);
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const batch = [...this.pending].sort((a, b) => (a[1].position < b[1].position ? -1 : 1));
        this.pending = new Map();
        const last = batch.at(-1)?.[1].position ?? 0n;
        await this.readModels.waitForPosition(last, READ_MODEL_WAIT_MS);
        for (const [organizationId, { position, trafficOnly }] of batch) {
          if (trafficOnly) this.compareTraffic(organizationId, position);
          else this.compare(organizationId, position);
        }
      }
    } catch (error) {
      this.logger.error({ err: error }, 'Entitlement changes could not be compared');
    } finally {
      this.draining = undefined;
    }
  }

  /**
   * Compared now when the organization's last change was sent an interval ago or more; else once the interval has
   * passed.
   */
  private compareTraffic(organizationId: string, position: bigint): void {
    const held = this.held.get(organizationId);
    if (held !== undefined) {
      if (position > held) this.held.set(organizationId, position);
      return;
    }
    const wait =
      (this.sentAt.get(organizationId) ?? Number.NEGATIVE_INFINITY) +
      TRAFFIC_CHANGE_INTERVAL_MS -
      this.clock.now().getTime();
    if (wait <= 0) {
      this.compare(organizationId, position);
      return;
    }
    this.held.set(organizationId, position);
    void this.clock.sleep(wait).then(() => {
      const at = this.held.get(organizationId);
      this.held.delete(organizationId);
      // As the read model has it now: what the reports held in the meantime made of it.
      if (at !== undefined && !this.closed) this.compare(organizationId, this.newest > at ? this.newest : at);
    });
  }

  private compare(organizationId: string, position: bigint): void {
    if (position > this.newest) this.newest = position;
    const etag = this.entitlements.of(organizationId)?.etag;
    if (etag === undefined || this.lastEtag.get(organizationId) === etag) return;
    this.lastEtag.set(organizationId, etag);
    this.sentAt.set(organizationId, this.clock.now().getTime());
    const change = { organizationId, position, etag };
    this.kept.push(change);
    if (this.kept.length > KEPT_CHANGES) this.kept.shift();
    for (const listener of this.listeners) listener(change);
  }
}
