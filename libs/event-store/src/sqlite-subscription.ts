import type { SubscribeToAllOptions } from './event-store.port.js';
import { PagedSubscription } from './paged-subscription.js';
import { rowPosition, rowStreamId, rowType, toRecordedEvent, type EventRow } from './sqlite-event-row.js';

export const SUBSCRIPTION_PAGE_SIZE = 500;

/**
 * Reads are synchronous and most handlers return at once, so without this a catch-up of a large log (or a
 * flood appended by another process) would hold the event loop until it ended: no /health, no port.
 */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A paged subscription on the SQLite store; the store's poll wakes it for another process's commit. */
export class SqliteSubscription extends PagedSubscription {
  constructor(
    private readonly readPage: (afterPosition: bigint, limit: number) => readonly EventRow[],
    private readonly headPosition: () => bigint,
    options: SubscribeToAllOptions,
    release: () => void,
  ) {
    super(options, release);
    this.start();
  }

  protected follow(): Promise<void> {
    return this.followPages<EventRow>({
      pageSize: SUBSCRIPTION_PAGE_SIZE,
      headPosition: () => this.headPosition(),
      readPage: (after, limit) => this.readPage(after, limit),
      positionOf: rowPosition,
      streamIdOf: rowStreamId,
      typeOf: rowType,
      eventOf: toRecordedEvent,
      afterFullPage: yieldToEventLoop,
    });
  }
}
