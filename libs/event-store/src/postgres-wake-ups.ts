import pg from 'pg';
import { APPENDED_CHANNEL } from './postgres-group-commit.js';

/** LISTEN, and a poll of the head behind it: a notification sent while the listener was down is lost for good. */
export class PostgresWakeUps {
  private listener: pg.Client | undefined;
  private listening: Promise<void> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private lastSeenHead = -1n;
  /** Counts stops: a listener that connects after one is not this start's and is closed. */
  private stops = 0;

  constructor(
    private readonly connectionString: string,
    private readonly timeoutMs: number,
    private readonly pollIntervalMs: number,
    private readonly readHead: () => Promise<bigint>,
    private readonly wake: () => void,
    /** Backends whose notifications are passed over: commits whose store wakes its subscriptions itself. */
    private readonly ownBackends: ReadonlySet<number> = new Set(),
  ) {}

  start(): void {
    if (this.pollTimer !== undefined) return;
    void this.listen();
    this.pollTimer = setInterval(() => void this.poll(), this.pollIntervalMs);
  }

  stop(): void {
    this.stops += 1;
    if (this.pollTimer !== undefined) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    const listener = this.listener;
    this.listener = undefined;
    this.listening = undefined;
    void listener?.end().catch(() => undefined);
  }

  private listen(): Promise<void> {
    this.listening ??= this.openListener().catch(() => {
      // The next poll tries again.
      this.listening = undefined;
    });
    return this.listening;
  }

  private async openListener(): Promise<void> {
    const startedAfter = this.stops;
    const listener = new pg.Client({
      connectionString: this.connectionString,
      connectionTimeoutMillis: this.timeoutMs,
      application_name: 'chorus-event-store-listen',
    });
    const lost = () => {
      if (this.listener !== listener) return;
      this.listener = undefined;
      this.listening = undefined;
    };
    listener.on('error', lost);
    listener.on('end', lost);
    listener.on('notification', (notification) => {
      if (!this.ownBackends.has(notification.processId)) this.wake();
    });
    await listener.connect();
    try {
      await listener.query(`LISTEN ${APPENDED_CHANNEL}`);
    } catch (error) {
      await listener.end().catch(() => undefined);
      throw error;
    }
    if (this.stops !== startedAfter) {
      await listener.end().catch(() => undefined);
      return;
    }
    this.listener = listener;
    this.wake();
  }

  private async poll(): Promise<void> {
    if (this.listener === undefined) void this.listen();
    try {
      const head = await this.readHead();
      if (head === this.lastSeenHead) return;
      this.lastSeenHead = head;
      this.wake();
    } catch {
      // Unreachable for now: the subscriptions' own reads say so if it lasts.
    }
  }
}
