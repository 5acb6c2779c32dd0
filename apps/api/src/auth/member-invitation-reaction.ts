// Invitations mailed by a durable at-least-once reaction, not in the add's request (docs/service.md, Invitations).
// A mail that must wait waits aside: the others go on, and the checkpoint stays before it so a restart tries it again.
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '#config';
import { organizationStreamPrefix, type MemberAdded } from '#domain';
import { inSpan, spanPlaceFor, TRACEPARENT, type CommandContext } from '#application';
import { EVENT_STORE, type EventStore, type RecordedEvent, type Subscription } from '#event-store';
import { InvitationClaimedElsewhere, InvitationDelayed, type Identity, type InvitationOutcome } from '#identity';
import { ReactionCheckpoints } from '#read-models';
import { PINO } from '../logging/pino.js';
import {
  owesInvitation,
  type MemberInvitations,
  type UndeliveredInvitation,
} from '../organizations/member-invitations.js';
import { Organizations } from '../organizations/organizations.service.js';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';
import { IDENTITY } from './identity.provider.js';
import { AppClock } from '../config/app-clock.js';
import { OrganizationMailWindow } from './organization-mail-window.js';

/**
 * Invitations handled at once (one person's from one organization in order), not counting those waiting to be tried
 * again.
 */
export const INVITATIONS_IN_FLIGHT = 64;

/** A bound on memory only. */
const INVITATIONS_BEHIND_CHECKPOINT = 100_000;

const CHECKPOINT = 'member-invitations';
/**
 * How long the checkpoint may lag: a process that dies handles this much again, recording and mailing nothing twice.
 */
const CHECKPOINT_EVERY_MS = 500;

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 60_000;

type Job = { position: bigint; done: boolean };

/** MemberAdded metadata the invitation's events do not repeat. */
const ownMetadata = new Set(['actor', 'correlationId', 'causationId', 'commandType', 'invitation', TRACEPARENT]);

@Injectable()
export class MemberInvitationReaction implements MemberInvitations, OnApplicationBootstrap, OnModuleDestroy {
  private subscription: Subscription | undefined;
  private storeId = '';
  /** Every owed invitation at or below it is handled (undefined: from the beginning of the log). */
  private handled: bigint | undefined;
  private running = false;
  private closing = false;
  private readonly jobs: Job[] = [];
  /** One person's invitations from one organization in order: the tail of each chain. */
  private readonly chains = new Map<string, Promise<void>>();
  /** Invitations being handled now: neither done, nor waiting in a chain, nor waiting to be tried again. */
  private busy = 0;
  private readonly organizationMails = new OrganizationMailWindow();
  private slotFreed: Array<() => void> = [];
  private waiters: Array<{ position: bigint; resolve: () => void }> = [];
  private readonly wakeRetries = new Set<() => void>();
  private checkpoints: ReactionCheckpoints | undefined;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private checkpointFailing = false;
  private readonly logger: Logger;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly organizations: Organizations,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    private readonly clock: AppClock,
    @Inject(PINO) pino: Logger,
  ) {
    this.logger = pino.child({ component: 'member-invitations' });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.runMode !== 'server') return;
    this.storeId = await this.store.storeId();
    this.checkpoints = ReactionCheckpoints.open(this.config.dataDir);
    const saved = this.checkpoints.read(CHECKPOINT);
    if (saved !== undefined && saved.storeId === this.storeId) {
      this.handled = saved.position;
    } else {
      // The MemberAdded already stored were invited by their requests; start after them, durably before the first add
      // is answered.
      if (saved !== undefined)
        this.logger.warn(
          { checkpointStoreId: saved.storeId, storeId: this.storeId },
          'Invitation checkpoint made against another event store: starting from its end',
        );
      this.handled = await this.store.headPosition();
      if (!(await this.checkpoints.saveStart(CHECKPOINT, { storeId: this.storeId, position: this.handled })))
        this.saveCheckpoint(false);
    }
    this.running = true;
    this.subscription = this.store.subscribeToAll({
      ...(this.handled === undefined ? {} : { fromPosition: this.handled }),
      filter: { streamPrefixes: [organizationStreamPrefix], eventTypes: ['MemberAdded'] },
      onEvent: (event) => this.deliver(event),
      onCaughtUp: (position) => {
        if (position !== undefined) this.passed(position);
      },
      onError: (error) => {
        if (!this.closing)
          this.logger.error({ err: error }, 'Invitation reaction stopped: owed invitations are mailed after a restart');
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.running) return;
    this.closing = true;
    for (const wake of this.wakeRetries) wake();
    await this.subscription?.close();
    await Promise.all(this.chains.values());
    clearTimeout(this.checkpointTimer);
    this.saveCheckpoint(true);
    this.checkpoints?.close();
    this.running = false;
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }

  handledUpTo(position: bigint): Promise<void> {
    if (!this.running || (this.handled !== undefined && this.handled >= position)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ position, resolve }));
  }

  async undelivered(organizationId: string, userIds: readonly string[]): Promise<UndeliveredInvitation[]> {
    return (await this.identity.invitations.undelivered(organizationId, userIds)).map(
      ({ organizationId: _, ...failure }) => failure,
    );
  }

  private async deliver(event: RecordedEvent): Promise<void> {
    const job: Job = { position: event.position, done: false };
    this.jobs.push(job);
    if (!owesInvitation(event)) {
      job.done = true;
      this.settle();
      return;
    }
    const { userId } = event.data as MemberAdded['data'];
    const chain = `${event.streamId} ${userId}`;
    const run = (this.chains.get(chain) ?? Promise.resolve())
      .then(() => this.tracedInvite(event))
      .finally(() => {
        job.done = true;
        if (this.chains.get(chain) === run) this.chains.delete(chain);
        this.settle();
      });
    this.chains.set(chain, run);
    while ((this.busy >= INVITATIONS_IN_FLIGHT || this.jobs.length >= INVITATIONS_BEHIND_CHECKPOINT) && !this.closing) {
      await new Promise<void>((resolve) => this.slotFreed.push(resolve));
    }
  }

  /**
   * With tracing on, a span in the trace of the add (its `traceparent`): the mail and the invitation's events are its
   * children.
   */
  private tracedInvite(event: RecordedEvent): Promise<void> {
    const attributes = {
      'chorus.reaction': CHECKPOINT,
      'chorus.event_id': event.id,
      'chorus.position': event.position.toString(),
    };
    return inSpan('reaction member-invitations', { ...spanPlaceFor([event]), attributes }, () => this.invite(event));
  }

  /** Never throws. */
  private async invite(event: RecordedEvent): Promise<void> {
    const { userId } = event.data as MemberAdded['data'];
    const organizationId = event.streamId.slice(organizationStreamPrefix.length);
    const { actor, correlationId } = event.metadata;
    const origin = Object.fromEntries(
      Object.entries(event.metadata).filter(
        (entry): entry is [string, string] => !ownMetadata.has(entry[0]) && typeof entry[1] === 'string',
      ),
    );
    const context: CommandContext = { actor, correlationId, causationId: event.id, origin };
    const about = { organizationId, userId, correlationId, memberAddedEventId: event.id };
    this.busy += 1;
    try {
      for (let wait = RETRY_FIRST_MS; ;) {
        if (this.closing) return;
        const organizationWait = this.organizationMails.waitFor(organizationId, this.clock.now().getTime());
        if (organizationWait > 0) {
          await this.waitAside(Math.min(organizationWait, RETRY_MAX_MS));
          continue;
        }
        const takeBack = this.organizationMails.take(organizationId, this.clock.now().getTime());
        try {
          const outcome = await this.inviteOnce(event, organizationId, context);
          if (outcome === 'duplicate') takeBack();
          if (outcome === 'resent')
            this.logger.info(
              { ...about, outcome },
              'Invitation mailed after a claim: tried again, or its sender stopped before recording it mailed',
            );
          return;
        } catch (error) {
          if (this.closing) return;
          if (error instanceof InvitationClaimedElsewhere) {
            takeBack();
            // Usually mailed within moments by the node that holds it; asked again sooner than its claim runs out.
            await this.waitAside(Math.min(Math.max(error.until.getTime() - this.clock.now().getTime(), 0), wait));
            wait = Math.min(wait * 2, RETRY_MAX_MS);
            continue;
          }
          if (error instanceof InvitationDelayed) {
            takeBack();
            const until = error.until.toISOString();
            this.logger.info(
              { ...about, until },
              'Invitation waits: this organization mailed this person as often as an hour allows',
            );
            await this.waitAside(
              Math.min(Math.max(error.until.getTime() - this.clock.now().getTime(), 0), RETRY_MAX_MS),
            );
            continue;
          }
          this.logger.warn({ ...about, err: error, retryInMs: wait }, 'Invitation mail not sent yet: trying again');
          await this.waitAside(wait);
          wait = Math.min(wait * 2, RETRY_MAX_MS);
        }
      }
    } finally {
      this.busy -= 1;
      this.freeSlots();
    }
  }

  private async waitAside(milliseconds: number): Promise<void> {
    this.busy -= 1;
    this.freeSlots();
    try {
      await this.sleep(milliseconds);
    } finally {
      this.busy += 1;
    }
  }

  private async inviteOnce(
    event: RecordedEvent,
    organizationId: string,
    context: CommandContext,
  ): Promise<InvitationOutcome> {
    const { userId, email } = event.data as MemberAdded['data'];
    const state = await this.organizations.loadAsOf(organizationId, event.revision);
    const organizationName = state.exists ? state.name : organizationId;
    const invitedBy = context.actor.startsWith('user:')
      ? (await this.identity.directory.profile(context.actor.slice('user:'.length)))?.email
      : undefined;
    return this.identity.invitations.invite(
      {
        userId,
        email,
        organizationId,
        organizationName,
        memberAddedEventId: event.id,
        ...(invitedBy === undefined ? {} : { invitedBy }),
      },
      context,
    );
  }

  private sleep(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeRetries.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, milliseconds);
      this.wakeRetries.add(wake);
    });
  }

  private passed(position: bigint): void {
    if (this.jobs.length > 0 || (this.handled !== undefined && this.handled >= position)) return;
    this.handled = position;
    this.progressed();
  }

  private settle(): void {
    let moved = false;
    while (this.jobs[0]?.done === true) {
      this.handled = this.jobs.shift()?.position;
      moved = true;
    }
    this.freeSlots();
    if (moved) this.progressed();
  }

  private freeSlots(): void {
    if (this.busy >= INVITATIONS_IN_FLIGHT || this.jobs.length >= INVITATIONS_BEHIND_CHECKPOINT) return;
    const freed = this.slotFreed;
    this.slotFreed = [];
    for (const resolve of freed) resolve();
  }

  private progressed(): void {
    const handled = this.handled;
    if (handled !== undefined) {
      const ready = this.waiters.filter((waiter) => waiter.position <= handled);
      this.waiters = this.waiters.filter((waiter) => waiter.position > handled);
      for (const waiter of ready) waiter.resolve();
    }
    this.scheduleCheckpoint();
  }

  private scheduleCheckpoint(): void {
    if (this.checkpointTimer !== undefined || this.closing) return;
    this.checkpointTimer = setTimeout(() => {
      this.checkpointTimer = undefined;
      this.saveCheckpoint(false);
    }, CHECKPOINT_EVERY_MS);
    this.checkpointTimer.unref();
  }

  private saveCheckpoint(durable: boolean): void {
    try {
      this.checkpoints?.save(CHECKPOINT, { storeId: this.storeId, position: this.handled }, durable);
      this.checkpointFailing = false;
    } catch (error) {
      // A lagging checkpoint only makes a restart handle more again (nothing twice); a rebuild may hold its file a
      // while.
      if (!this.checkpointFailing)
        this.logger.warn({ err: error }, 'The invitation checkpoint could not be saved: trying again');
      this.checkpointFailing = true;
      this.scheduleCheckpoint();
    }
  }
}
