import type { SubscribeToAllOptions, Subscription } from './event-store.port.js';

/** Do not await close() from inside onEvent: close() waits for the running handler. */
export abstract class CatchUpSubscription implements Subscription {
  /** Set once: nothing is delivered after it. */
  protected stopped = false;
  private following: Promise<void> = Promise.resolve();

  constructor(
    protected readonly options: SubscribeToAllOptions,
    private readonly release: () => void,
  ) {}

  async close(): Promise<void> {
    await this.stop();
  }

  /** Reports `reason` (the store closing) once the running handler is done. */
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

  /** The last step of the adapter's constructor. */
  protected start(): void {
    this.following = this.follow();
  }

  protected fail(error: unknown): void {
    this.stopped = true;
    this.release();
    this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
  }

  protected abstract follow(): Promise<void>;

  /** Wakes whatever follow() waits on, so that it sees it is stopped. */
  protected abstract interrupt(): void | Promise<void>;
}
