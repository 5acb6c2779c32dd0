import { CatchUpSubscription } from './catch-up-subscription.js';
import { InvalidPositionError, type RecordedEvent, type SubscribeToAllOptions } from './event-store.port.js';
import { matchesSubscriptionFilter } from './subscription-filter.js';

/** Events read per query while catching up. */
export const POSTGRES_SUBSCRIPTION_PAGE_SIZE = 500;

/**
 * A catch-up subscription on the PostgreSQL store: reads pages after its position, awaits the handler for
 * each matching event in order, and, at the head, sleeps until woken: by a commit of this process, by a
 * notification of another's (LISTEN), or by the store's poll, which covers a notification that was lost.
 */
export class PostgresSubscription extends CatchUpSubscription {
  private woken = false;
  private wakeUp: (() => void) | undefined;

  constructor(
    private readonly readPage: (afterPosition: bigint, limit: number) => Promise<RecordedEvent[]>,
    /** The last position stored (0 when empty). */
    private readonly headPosition: () => Promise<bigint>,
    options: SubscribeToAllOptions,
    release: () => void,
    /** How long to wait before reading again when a read failed (the server restarting, a connection dropped). */
    private readonly retryDelayMs: number,
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
    await Promise.resolve();
    const { filter, onEvent, onCaughtUp } = this.options;
    let position = this.options.fromPosition ?? 0n;
    let caughtUp = false;
    try {
      // Positions are 1, 2, 3, ... without gaps: any position up to the head is an event's.
      const head = await this.retried(() => this.headPosition());
      if (head === undefined) return;
      if (position > head) throw new InvalidPositionError(position, `this store's last position is ${head}`);
      let seen = this.options.fromPosition;
      while (!this.stopped) {
        this.woken = false;
        const after = position;
        const page = await this.retried(() => this.readPage(after, POSTGRES_SUBSCRIPTION_PAGE_SIZE));
        if (page === undefined) return;
        for (const event of page) {
          if (this.stopped) return;
          position = event.position;
          seen = position;
          if (!matchesSubscriptionFilter(filter, event.streamId, event.type)) continue;
          const handled = onEvent(event);
          if (handled !== undefined) await handled;
        }
        if (page.length < POSTGRES_SUBSCRIPTION_PAGE_SIZE && !this.stopped) {
          if (!caughtUp) {
            caughtUp = true;
            onCaughtUp?.(seen);
          }
          await this.nextWake();
        }
      }
    } catch (error) {
      if (!this.stopped) this.fail(error);
    }
  }

  /**
   * A read, tried again until it answers or the subscription stops (undefined): a server that restarts or a
   * connection that drops must not end a projection for good. Only a handler's failure or the store's closing does.
   */
  private async retried<T>(read: () => Promise<T>): Promise<T | undefined> {
    while (!this.stopped) {
      try {
        return await read();
      } catch {
        if (this.stopped) return undefined;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.retryDelayMs);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
    return undefined;
  }

  private nextWake(): Promise<void> {
    if (this.woken || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      this.wakeUp = resolve;
    });
  }
}
