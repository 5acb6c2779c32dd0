// Each node learns of entitlement changes from the shared store, not from the node that made them: it
// follows the organization streams, and once its own read model has an event, compares the organization's
// entitlements (their ETag) with what it last saw. A change on any node reaches subscribers on every node.
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { organizationStreamPrefix } from '#domain';
import { EVENT_STORE, type EventStore, type Subscription } from '#event-store';
import { READ_MODELS, ReadModels } from '#read-models';
import { PINO } from '../logging/pino.js';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';
import { OrganizationEntitlements } from './organization-entitlements.js';

export type EntitlementChange = { organizationId: string; position: bigint; etag: string };

/** Changes kept for subscribers that reconnect (Last-Event-ID); one from before them answers `reset`. */
export const KEPT_CHANGES = 10_000;
/** How long a batch waits for this node's read model before it is compared anyway. */
const READ_MODEL_WAIT_MS = 5_000;

@Injectable()
export class EntitlementChanges implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription: Subscription | undefined;
  /** The position this node started following from: a client that saw nothing after it must start again. */
  private startedAfter: bigint | undefined = undefined;
  private started = false;
  private readonly lastEtag = new Map<string, string>();
  private readonly kept: EntitlementChange[] = [];
  private pending = new Map<string, bigint>();
  private draining: Promise<void> | undefined;
  private readonly listeners = new Set<(change: EntitlementChange) => void>();
  private readonly logger: Logger;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly entitlements: OrganizationEntitlements,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    @Inject(PINO) pino: Logger,
  ) {
    this.logger = pino.child({ component: 'entitlement-changes' });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.runMode !== 'server') return;
    this.startedAfter = await this.store.headPosition();
    this.started = true;
    this.subscription = this.store.subscribeToAll({
      ...(this.startedAfter === undefined ? {} : { fromPosition: this.startedAfter }),
      filter: { streamPrefixes: [organizationStreamPrefix] },
      onEvent: (event) => {
        this.pending.set(event.streamId.slice(organizationStreamPrefix.length), event.position);
        this.draining ??= this.drain();
      },
      onError: (error) => this.logger.error({ err: error }, 'Entitlement changes stopped: subscribers get no more changes until a restart'),
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
    await this.draining;
    this.listeners.clear();
  }

  /** Calls `listener` with every change from now on; answers how to stop. */
  listen(listener: (change: EntitlementChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The changes after `position`, or 'reset' when this node cannot tell what changed since (too old, or from before it started). */
  since(position: bigint): EntitlementChange[] | 'reset' {
    const oldestKept = this.kept[0]?.position;
    const knownFrom = oldestKept !== undefined && this.kept.length >= KEPT_CHANGES ? oldestKept : this.startedAfter;
    if (!this.started || (knownFrom !== undefined && position < knownFrom)) return 'reset';
    return this.kept.filter((change) => change.position > position);
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const batch = [...this.pending].sort((a, b) => (a[1] < b[1] ? -1 : 1));
        this.pending = new Map();
        const last = batch.at(-1)?.[1] ?? 0n;
        await this.readModels.waitForPosition(last, READ_MODEL_WAIT_MS);
        for (const [organizationId, position] of batch) this.compare(organizationId, position);
      }
    } catch (error) {
      this.logger.error({ err: error }, 'Entitlement changes could not be compared');
    } finally {
      this.draining = undefined;
    }
  }

  private compare(organizationId: string, position: bigint): void {
    const etag = this.entitlements.of(organizationId)?.etag;
    if (etag === undefined || this.lastEtag.get(organizationId) === etag) return;
    this.lastEtag.set(organizationId, etag);
    const change = { organizationId, position, etag };
    this.kept.push(change);
    if (this.kept.length > KEPT_CHANGES) this.kept.shift();
    for (const listener of this.listeners) listener(change);
  }
}
