import type Database from 'better-sqlite3';
import { EventStoreClosedError, type SubscribeToAllOptions, type Subscription } from './event-store.port.js';
import { EVENT_ROW_COLUMNS, type EventRow } from './sqlite-event-row.js';
import { SharedHeadPage } from './shared-head-page.js';
import { LimitedStatements } from './sqlite-limited-statements.js';
import { SqliteSubscription } from './sqlite-subscription.js';
import type { WalSync } from './sqlite-wal-sync.js';

/**
 * The embedded store's subscriptions. They read only what is on disk, so what a read model, a reaction or a webhook
 * acts on, a power loss cannot take back; they are woken when a sync moves that end, and look for another process's
 * commits by polling `PRAGMA data_version`.
 */
export class SqliteFollowers {
  private readonly subscriptions = new Set<SqliteSubscription>();
  private readonly headPage = new SharedHeadPage<readonly EventRow[]>();
  private pollTimer: NodeJS.Timeout | undefined;
  private lastDataVersion: bigint | undefined;
  private readonly durableAfter: LimitedStatements;
  // Changes whenever ANOTHER connection (another process) commits to the file.
  private readonly dataVersion: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly walSync: WalSync,
    private readonly pollIntervalMs: number,
  ) {
    this.durableAfter = new LimitedStatements(
      db,
      `SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE position > ? AND position <= ? ORDER BY position`,
      true,
    );
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  subscribe(options: SubscribeToAllOptions): Subscription {
    // It sees every commit made before it, another process's included.
    this.walSync.syncNow();
    const madeAfter = this.headPage.madeNow;
    const subscription: SqliteSubscription = new SqliteSubscription(
      (after, limit) => this.page(after, limit, madeAfter),
      () => this.walSync.durableHead(),
      options,
      () => this.release(subscription),
    );
    this.subscriptions.add(subscription);
    this.startPolling();
    return subscription;
  }

  wake(): void {
    this.headPage.drop();
    for (const subscription of this.subscriptions) subscription.wake();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop(new EventStoreClosedError())));
    this.stopPolling();
  }

  /** Subscriptions only read the rows, so they may share a page. */
  private page(afterPosition: bigint, limit: number, madeAfter: number): readonly EventRow[] {
    return this.headPage.take(
      afterPosition,
      limit,
      madeAfter,
      () => this.durableAfter.all(limit, afterPosition, this.walSync.durableHead()) as EventRow[],
    );
  }

  private release(subscription: SqliteSubscription): void {
    this.subscriptions.delete(subscription);
    if (this.subscriptions.size === 0) {
      this.headPage.drop();
      this.stopPolling();
    }
  }

  private startPolling(): void {
    if (this.pollTimer !== undefined) return;
    this.lastDataVersion = this.dataVersion.get() as bigint;
    this.pollTimer = setInterval(() => {
      const version = this.dataVersion.get() as bigint;
      if (version === this.lastDataVersion) return;
      this.lastDataVersion = version;
      // Another process committed: its rows are delivered once a sync here has covered them.
      this.walSync.request();
    }, this.pollIntervalMs);
  }

  private stopPolling(): void {
    if (this.pollTimer !== undefined) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }
}
