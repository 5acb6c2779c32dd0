import { CatchUpSubscription } from './catch-up-subscription.js';
import { InvalidPositionError, type RecordedEvent } from './event-store.port.js';
import { matchesSubscriptionFilter } from './subscription-filter.js';

type MaybePromise<T> = T | Promise<T>;

/**
 * A store's log as a paged subscription reads it. A read that answers undefined was cut short by the subscription
 * stopping.
 */
export type PagedLog<Row> = {
  pageSize: number;
  /** The last position stored (0 when empty). */
  headPosition: () => MaybePromise<bigint | undefined>;
  readPage: (afterPosition: bigint, limit: number) => MaybePromise<readonly Row[] | undefined>;
  positionOf: (row: Row) => bigint;
  streamIdOf: (row: Row) => string;
  typeOf: (row: Row) => string;
  // A row is matched against the filter before it becomes an event: skipped rows cost no decoding.
  eventOf: (row: Row) => RecordedEvent;
  afterFullPage?: () => Promise<void>;
};

/**
 * A catch-up subscription that reads pages after its position, awaits the handler for each matching event
 * in order, and, at the head, sleeps until woken (by a commit of this process, another's, or the store's poll).
 */
export abstract class PagedSubscription extends CatchUpSubscription {
  private woken = false;
  private wakeUp: (() => void) | undefined;

  /** New events may have been committed. */
  wake(): void {
    this.woken = true;
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    wakeUp?.();
  }

  protected interrupt(): void {
    this.wake();
  }

  protected async followPages<Row>(log: PagedLog<Row>): Promise<void> {
    // Nothing is delivered before subscribeToAll has returned to its caller.
    await Promise.resolve();
    const { filter, onEvent, onCaughtUp } = this.options;
    let position = this.options.fromPosition ?? 0n;
    let seen = this.options.fromPosition;
    let caughtUp = false;
    try {
      // A synchronous read stays synchronous: no extra turn of the microtask queue per page.
      const headRead = log.headPosition();
      const head = headRead instanceof Promise ? await headRead : headRead;
      if (head === undefined) return;
      // Positions are 1, 2, 3, ... without gaps: any position up to the head is an event's.
      if (position > head) throw new InvalidPositionError(position, `this store's last position is ${head}`);
      while (!this.stopped) {
        this.woken = false;
        const pageRead = log.readPage(position, log.pageSize);
        const page = pageRead instanceof Promise ? await pageRead : pageRead;
        if (page === undefined) return;
        for (const row of page) {
          if (this.stopped) return;
          position = log.positionOf(row);
          seen = position;
          if (!matchesSubscriptionFilter(filter, log.streamIdOf(row), log.typeOf(row))) continue;
          const handled = onEvent(log.eventOf(row));
          if (handled !== undefined) await handled;
        }
        if (page.length < log.pageSize && !this.stopped) {
          if (!caughtUp) {
            caughtUp = true;
            onCaughtUp?.(seen);
          }
          await this.nextWake();
        } else if (log.afterFullPage !== undefined) {
          await log.afterFullPage();
        }
      }
    } catch (error) {
      if (!this.stopped) this.fail(error);
    }
  }

  /** Waits `ms`, or less if woken or stopped. */
  protected pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private nextWake(): Promise<void> {
    if (this.woken || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.wakeUp = resolve;
    });
  }
}
