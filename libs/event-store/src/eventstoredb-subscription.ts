import {
  ErrorType,
  START,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type EventStoreDBClient,
  type Position,
} from '@eventstore/db-client';
import { CatchUpSubscription } from './catch-up-subscription.js';
import { InvalidPositionError, type SubscribeToAllOptions } from './event-store.port.js';
import { isInvalidPosition } from './eventstoredb-errors.js';
import {
  isAfter,
  isSystemEvent,
  toEventStoreDbPosition,
  toRecordedEvent,
  toServerFilter,
} from './eventstoredb-mapping.js';
import { matchesSubscriptionFilter } from './subscription-filter.js';

const RECONNECT_DELAYS_MS = [100, 250, 500, 1_000, 2_000, 5_000];

const PERMANENT_ERRORS = new Set<string>([ErrorType.ACCESS_DENIED, ErrorType.INVALID_ARGUMENT, ErrorType.UNSUPPORTED]);

class StartPositionRefused extends Error {
  constructor(readonly refusal: InvalidPositionError) {
    super(refusal.message);
  }
}

class HandlerFailure extends Error {
  constructor(readonly failure: unknown) {
    super('subscription handler failed');
  }
}

/** Server-filtered; a dropped subscription is re-opened from the last event seen. */
export class EventStoreDbSubscription extends CatchUpSubscription {
  private current: AllStreamSubscription | undefined;
  private lastSeen: Position | undefined;
  private wakeFromPause: (() => void) | undefined;

  constructor(
    private readonly client: Pick<EventStoreDBClient, 'subscribeToAll'>,
    options: SubscribeToAllOptions,
    /** System events included. */
    private readonly logEnd: () => Promise<Position | undefined>,
    release: () => void,
  ) {
    super(options, release);
    this.lastSeen = options.fromPosition === undefined ? undefined : toEventStoreDbPosition(options.fromPosition);
    this.start();
  }

  protected async interrupt(): Promise<void> {
    this.wakeFromPause?.();
    if (this.current !== undefined) await this.cancel(this.current);
  }

  protected async follow(): Promise<void> {
    // Nothing is delivered before subscribeToAll has returned to its caller.
    await Promise.resolve();
    let failures = 0;
    while (!this.stopped) {
      try {
        await this.checkStartPosition();
      } catch (error) {
        if (this.stopped) break;
        if (error instanceof StartPositionRefused) return this.fail(error.refusal);
        failures += 1;
        await this.pause(RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length) - 1] ?? 5_000);
        continue;
      }
      if (this.stopped) break;
      const subscription = this.client.subscribeToAll({
        // A follower may be behind the leader that acknowledged what the readers were told of.
        requiresLeader: true,
        fromPosition: this.lastSeen ?? START,
        filter: toServerFilter(this.options.filter),
      });
      this.current = subscription;
      subscription.on('confirmation', () => {
        failures = 0;
      });
      try {
        await this.deliver(subscription);
      } catch (error) {
        if (this.stopped) break;
        if (error instanceof HandlerFailure) return this.fail(error.failure);
        if (isInvalidPosition(error)) {
          return this.fail(
            new InvalidPositionError(this.lastSeen?.commit ?? 0n, `EventStoreDB refused it (${errorMessage(error)})`),
          );
        }
        if (isPermanent(error)) return this.fail(error);
      } finally {
        this.current = undefined;
        await this.cancel(subscription);
      }
      if (this.stopped) break;
      failures += 1;
      await this.pause(RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length) - 1] ?? 5_000);
    }
  }

  private async deliver(subscription: AllStreamSubscription): Promise<void> {
    const { filter, onEvent, onCaughtUp } = this.options;
    let taken = 0;
    let handled = 0;
    let caughtUpAfter: number | undefined;
    const reportCaughtUp = () => {
      if (caughtUpAfter === undefined || handled < caughtUpAfter || this.stopped) return;
      caughtUpAfter = undefined;
      onCaughtUp?.(this.lastSeen?.commit);
    };
    subscription.on('caughtUp', () => {
      // Events the server sent before the signal may still sit in the stream's buffer.
      caughtUpAfter = taken + subscription.readableLength;
      try {
        reportCaughtUp();
      } catch (error) {
        subscription.destroy(new HandlerFailure(error));
      }
    });
    for await (const resolved of subscription as AsyncIterable<AllStreamResolvedEvent>) {
      if (this.stopped) return;
      taken += 1;
      const event = resolved.event;
      // After a reconnect the server starts AT the last event seen: skip it and anything before.
      if (event !== undefined && isAfter(event.position, this.lastSeen)) {
        if (!isSystemEvent(event) && matchesSubscriptionFilter(filter, event.streamId, event.type)) {
          try {
            await onEvent(toRecordedEvent(event));
          } catch (error) {
            throw new HandlerFailure(error);
          }
        }
        this.lastSeen = event.position;
      }
      handled += 1;
      try {
        reportCaughtUp();
      } catch (error) {
        throw new HandlerFailure(error);
      }
    }
  }

  /**
   * EventStoreDB 24.10 takes a start past the end as "from the end", then silently skips appends until the log reaches
   * it.
   */
  private async checkStartPosition(): Promise<void> {
    const from = this.lastSeen;
    if (from === undefined) return;
    const end = await this.logEnd();
    if (end === undefined || isAfter(from, end)) {
      const last = end === undefined ? 'the log is empty' : `the log ends at ${end.commit}`;
      throw new StartPositionRefused(new InvalidPositionError(from.commit, last));
    }
  }

  private async cancel(subscription: AllStreamSubscription): Promise<void> {
    try {
      await subscription.unsubscribe();
    } catch {
      // Already gone with its connection.
    }
    // The client does not end the stream when the call is cancelled: destroying it ends the for-await.
    subscription.destroy();
  }

  private pause(milliseconds: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, milliseconds);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeFromPause = done;
    });
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isPermanent(error: unknown): boolean {
  return error instanceof Error && 'type' in error && PERMANENT_ERRORS.has(String(error.type));
}
