import { InvalidPositionError, type SubscribeToAllOptions, type Subscription } from './event-store.port.js';
import { rowPosition, rowStreamId, rowType, toRecordedEvent, type EventRow } from './sqlite-event-row.js';
import { matchesSubscriptionFilter } from './subscription-filter.js';

/** Events read per query while catching up. */
export const SUBSCRIPTION_PAGE_SIZE = 500;

/**
 * A catch-up subscription on the SQLite store: reads pages after its position, awaits the handler
 * for each matching event in order, and, at the head, sleeps until woken (by an append committed
 * in this process, or by the store's poll noticing another process's commit).
 * Do not await close() from inside onEvent: close() waits for the running handler.
 */
export class SqliteSubscription implements Subscription {
  private stopped = false;
  private woken = false;
  private wakeUp: (() => void) | undefined;
  private readonly following: Promise<void>;

  constructor(
    private readonly readPage: (afterPosition: bigint, limit: number) => readonly EventRow[],
    /** The last position stored (0 when empty). */
    private readonly headPosition: () => bigint,
    private readonly options: SubscribeToAllOptions,
    /** Tells the store this subscription no longer needs waking. */
    private readonly release: () => void,
  ) {
    this.following = this.follow();
  }

  /** New events may have been committed. */
  wake(): void {
    this.woken = true;
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    wakeUp?.();
  }

  async close(): Promise<void> {
    await this.stop();
  }

  /** Stops delivery, waits for the running handler, then reports `reason` (the store closing) if given. */
  async stop(reason?: Error): Promise<void> {
    const first = !this.stopped;
    if (first) {
      this.stopped = true;
      this.release();
      this.wake();
    }
    await this.following;
    if (first && reason !== undefined) this.options.onError?.(reason);
  }

  private async follow(): Promise<void> {
    // Nothing is delivered before subscribeToAll has returned to its caller.
    await Promise.resolve();
    const { filter, onEvent, onCaughtUp } = this.options;
    let position = this.options.fromPosition ?? 0n;
    let seen = this.options.fromPosition;
    let caughtUp = false;
    try {
      // Positions are 1, 2, 3, ... without gaps: any position up to the head is an event's.
      const head = this.headPosition();
      if (position > head) throw new InvalidPositionError(position, `this store's last position is ${head}`);
      while (!this.stopped) {
        this.woken = false;
        const page = this.readPage(position, SUBSCRIPTION_PAGE_SIZE);
        for (const row of page) {
          if (this.stopped) return;
          position = rowPosition(row);
          seen = position;
          if (matchesSubscriptionFilter(filter, rowStreamId(row), rowType(row))) await onEvent(toRecordedEvent(row));
        }
        if (page.length < SUBSCRIPTION_PAGE_SIZE && !this.stopped) {
          if (!caughtUp) {
            caughtUp = true;
            onCaughtUp?.(seen);
          }
          await this.nextWake();
        }
      }
    } catch (error) {
      if (this.stopped) return;
      this.stopped = true;
      this.release();
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private nextWake(): Promise<void> {
    if (this.woken || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.wakeUp = resolve;
    });
  }
}
