// The whole history as a file ("Download JSON lines", "Download CSV", `chorus org:history --format`):
// the stream read a page at a time and written as it is read, with the words the timeline shows. Memory
// holds one page and the organization's state (for the names of removed members and sites), never the history.
import { Inject, Injectable } from '@nestjs/common';
import { organizationStream } from '#domain';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import type { HistoryFilter } from '#read-models';
import { ActorNameLookup } from './actor-name-lookup.js';
import { exportHeader, exportLine, type ExportFormat } from './history-export-format.js';
import { HistoryInWords } from './history-in-words.js';
import { organizationNotFound } from './organization-history.js';
import { actorOf } from './timeline-entry.js';

/** Events per read, and per chunk written. */
export const EXPORT_PAGE_SIZE = 500;

/** The timeline's filters, applied to the stream as it is read (every event is still folded, for the names). */
function matches(filter: HistoryFilter, event: RecordedEvent): boolean {
  const at = Date.parse(event.recordedAt);
  return (
    (filter.type === undefined || event.type === filter.type) &&
    (filter.actor === undefined || actorOf(event) === filter.actor) &&
    (filter.from === undefined || at >= Date.parse(filter.from)) &&
    (filter.to === undefined || at <= Date.parse(filter.to))
  );
}

@Injectable()
export class HistoryExport {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly actorNames: ActorNameLookup,
  ) {}

  /**
   * The file, chunk by chunk, oldest event first. Refuses an unknown organization before the first
   * chunk, so an HTTP answer can still be a 404 rather than a broken download.
   */
  async open(organizationId: string, format: ExportFormat, filter: HistoryFilter = {}): Promise<AsyncIterable<string>> {
    const first = await this.readPage(organizationId, 0n);
    if (first === undefined) throw organizationNotFound();
    return this.chunks(organizationId, format, first, filter);
  }

  private async *chunks(
    organizationId: string,
    format: ExportFormat,
    first: RecordedEvent[],
    filter: HistoryFilter,
  ): AsyncGenerator<string> {
    yield exportHeader(format);
    const words = new HistoryInWords(this.actorNames, organizationId);
    for (let page: RecordedEvent[] | undefined = first; page !== undefined && page.length > 0;) {
      const chunk = (await words.entries(page, (event) => matches(filter, event)))
        .map((entry) => exportLine(format, entry))
        .join('');
      if (chunk !== '') yield chunk;
      const last = page.at(-1);
      page =
        page.length < EXPORT_PAGE_SIZE || last === undefined
          ? undefined
          : await this.readPage(organizationId, last.revision + 1n);
    }
  }

  private async readPage(organizationId: string, fromRevision: bigint): Promise<RecordedEvent[] | undefined> {
    const read = await this.store.readStream(organizationStream(organizationId), {
      fromRevision,
      maxCount: EXPORT_PAGE_SIZE,
    });
    return read.found ? read.events : undefined;
  }
}
