// The last provisioning requests of an organization's directory and how each ended (the console's Directory page), so
// that IT can see what its identity provider sent. Entries hold no personal data: the method, the path without its
// query (a filter holds addresses), the answer's status and the token. Written in batches, one append per organization
// every FLUSH_MS, so that logging costs provisioning next to nothing; a crash loses at most that long of the log
// (docs/directory.md), never a change: the changes themselves are events of their own.
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { handleCommand, newCommandContext } from '#application';
import { scimRequestLogDecider, scimRequestLogStream, type ScimRequestLogged } from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { AppClock } from '../config/app-clock.js';

export const SCIM_REQUEST_LOG_SIZE = 100;
const FLUSH_MS = 200;

export type ScimRequestEntry = ScimRequestLogged['data'];

@Injectable()
export class ScimRequestLog implements OnModuleDestroy {
  private readonly pending = new Map<string, ScimRequestEntry[]>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: AppClock,
  ) {}

  record(organizationId: string, entry: Omit<ScimRequestEntry, 'at'>): void {
    const entries = this.pending.get(organizationId) ?? [];
    entries.push({ ...entry, at: this.clock.now().toISOString() });
    this.pending.set(organizationId, entries);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Newest first. */
  async recent(organizationId: string): Promise<ScimRequestEntry[]> {
    await this.flush();
    const read = await this.store.readStream(scimRequestLogStream(organizationId), {
      direction: 'backwards',
      maxCount: SCIM_REQUEST_LOG_SIZE,
    });
    return read.found ? read.events.map((event) => event.data as ScimRequestEntry) : [];
  }

  async onModuleDestroy(): Promise<void> {
    await this.flush();
  }

  /** One append per organization; flushes run one after another. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const batches = [...this.pending.entries()];
    this.pending.clear();
    this.flushing = this.flushing.then(async () => {
      for (const [organizationId, entries] of batches) {
        const command = { type: 'LogScimRequests', data: { entries } } as const;
        await handleCommand(
          this.store,
          scimRequestLogDecider,
          organizationId,
          command,
          newCommandContext('system'),
        ).catch(() => undefined);
      }
    });
    return this.flushing;
  }
}
