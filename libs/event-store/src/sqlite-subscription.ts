import { CatchUpSubscription } from './catch-up-subscription.js';
import { InvalidPositionError, type SubscribeToAllOptions } from './event-store.port.js';
import { rowPosition, rowStreamId, rowType, toRecordedEvent, type EventRow } from './sqlite-event-row.js';
import { matchesSubscriptionFilter } from './subscription-filter.js';

/** Events read per query while catching up. */
export const SUBSCRIPTION_PAGE_SIZE = 500;

/**
 * Lets HTTP requests, timers and other subscriptions run. Reads are synchronous and handlers that
 * return at once only queue microtasks, so without this a catch-up of a large log (or a flood
 * appended by another process) would hold the event loop until it ended: no /health, no port.
 */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A catch-up subscription on the SQLite store: reads pages after its position, awaits the handler
 * for each matching event in order (when it returns a promise), yields to the event loop after every full page, and, at the
 * head, sleeps until woken (by an append committed in this process, or by the store's poll noticing
 * another process's commit).
 */
export class SqliteSubscription extends CatchUpSubscription {
  private woken = false;
  private wakeUp: (() => void) | undefined;

  constructor(
    private readonly readPage: (afterPosition: bigint, limit: number) => readonly EventRow[],
    /** The last position stored (0 when empty). */
    private readonly headPosition: () => bigint,
    options: SubscribeToAllOptions,
    /** Tells the store this subscription no longer needs waking. */
    release: () => void,
  ) {
    super(options, release);
    this.start();
  }

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

  protected async follow(): Promise<void> {
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
          if (!matchesSubscriptionFilter(filter, rowStreamId(row), rowType(row))) continue;
          // A handler that returns nothing is done: no promise to wait for (most events, for the projections).
          const handled = onEvent(toRecordedEvent(row));
          if (handled !== undefined) await handled;
        }
        if (page.length < SUBSCRIPTION_PAGE_SIZE && !this.stopped) {
          if (!caughtUp) {
            caughtUp = true;
            onCaughtUp?.(seen);
          }
          await this.nextWake();
        } else {
          await yieldToEventLoop();
        }
      }
    } catch (error) {
      if (!this.stopped) this.fail(error);
    }
  }

  private nextWake(): Promise<void> {
    if (this.woken || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.wakeUp = resolve;
    });
  }
}
