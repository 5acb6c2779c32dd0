import type { RecordedEvent, SubscribeToAllOptions } from './event-store.port.js';
import { PagedSubscription } from './paged-subscription.js';

export const POSTGRES_SUBSCRIPTION_PAGE_SIZE = 500;

/**
 * A paged subscription on the PostgreSQL store; other processes' commits wake it by LISTEN, and the poll covers a lost
 * notification.
 */
export class PostgresSubscription extends PagedSubscription {
  constructor(
    private readonly readPage: (afterPosition: bigint, limit: number) => Promise<RecordedEvent[]>,
    private readonly headPosition: () => Promise<bigint>,
    options: SubscribeToAllOptions,
    release: () => void,
    private readonly retryDelayMs: number,
  ) {
    super(options, release);
    this.start();
  }

  protected follow(): Promise<void> {
    return this.followPages<RecordedEvent>({
      pageSize: POSTGRES_SUBSCRIPTION_PAGE_SIZE,
      headPosition: () => this.retried(() => this.headPosition()),
      readPage: (after, limit) => this.retried(() => this.readPage(after, limit)),
      positionOf: (event) => event.position,
      streamIdOf: (event) => event.streamId,
      typeOf: (event) => event.type,
      eventOf: (event) => event,
    });
  }

  /**
   * Undefined once stopped. A restarting server or a dropped connection must not end a projection: only a handler or
   * closing does.
   */
  private async retried<T>(read: () => Promise<T>): Promise<T | undefined> {
    while (!this.stopped) {
      try {
        return await read();
      } catch {
        if (this.stopped) return undefined;
        await this.pause(this.retryDelayMs);
      }
    }
    return undefined;
  }
}
