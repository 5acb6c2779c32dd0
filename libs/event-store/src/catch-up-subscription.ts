import type { SubscribeToAllOptions, Subscription } from './event-store.port.js';

/**
 * What the subscriptions of every adapter share: they stop once (by close(), by the store closing under
 * them, or by a failure), release the store's hold on them, and wait for the handler that is running.
 * Do not await close() from inside onEvent: close() waits for the running handler.
 */
export abstract class CatchUpSubscription implements Subscription {
  /** Set once: nothing is delivered after it. */
  protected stopped = false;
  private following: Promise<void> = Promise.resolve();

  constructor(
    protected readonly options: SubscribeToAllOptions,
    /** Tells the store this subscription is gone. */
    private readonly release: () => void,
  ) {}

  async close(): Promise<void> {
    await this.stop();
  }

  /** Stops delivery, waits for the running handler, then reports `reason` (the store closing) if given. */
  async stop(reason?: Error): Promise<void> {
    const first = !this.stopped;
    if (first) {
      this.stopped = true;
      this.release();
      await this.interrupt();
    }
    await this.following;
    if (first && reason !== undefined) this.options.onError?.(reason);
  }

  /** Starts delivering: the last step of the adapter's constructor. */
  protected start(): void {
    this.following = this.follow();
  }

  /** Stops for good after the handler or the source failed, and reports why. */
  protected fail(error: unknown): void {
    this.stopped = true;
    this.release();
    this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
  }

  /** Delivers events, in order, each handler awaited, until stopped. */
  protected abstract follow(): Promise<void>;

  /** Wakes or cancels whatever follow() waits on, so that it sees it is stopped. */
  protected abstract interrupt(): void | Promise<void>;
}
