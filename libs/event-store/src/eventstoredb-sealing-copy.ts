// The sealing of an EventStoreDB store (store:seal-personal-data --into): EventStoreDB keeps every event as written,
// so the sealed log is a copy into a new database, each event through the same change the in-place sealing applies,
// then read back from the new database and checked before the next. The old database is never written.
import { asCopied, copiedFromOf, withCopiedFrom } from './copied-from.js';
import type { EventStore, RecordedEvent, StoredEvent } from './event-store.port.js';
import type { EventStoreDbCopies } from './eventstoredb-copies.js';
import type { EventRewrite, LogRewriter, LogRewriteResult } from './log-rewrite.port.js';

const PAGE = 1_000;

function toRecorded(event: StoredEvent): RecordedEvent {
  return {
    position: event.position,
    streamId: event.streamId,
    revision: event.revision,
    id: event.id,
    type: event.type,
    data: JSON.parse(event.data) as unknown,
    metadata: JSON.parse(event.metadata) as RecordedEvent['metadata'],
    recordedAt: event.recordedAt,
  };
}

export class EventStoreDbSealingCopy implements LogRewriter {
  constructor(
    private readonly source: EventStoreDbCopies,
    private readonly target: { log: EventStoreDbCopies; store: EventStore },
  ) {}

  /**
   * Every run walks the whole source: an event written already is sent again at its revision with its id, which the
   * new database answers as written, and it is read back and checked again, so a run cut short (kill -9) between an
   * append and its check leaves nothing unchecked.
   */
  async rewrite(
    change: (event: RecordedEvent) => Promise<EventRewrite | undefined>,
    check: (rewritten: RecordedEvent, original: RecordedEvent) => Promise<void>,
  ): Promise<LogRewriteResult> {
    await this.checkTarget();
    let examined = 0;
    let rewritten = 0;
    for (let after = 0n; ;) {
      const page = await this.source.exportEvents(after, PAGE);
      if (page.length === 0) return { examined, rewritten };
      for (const stored of page) {
        // As its history holds it: an event copied into the old database keeps the position and time its copy noted.
        const original = toRecorded(asCopied(stored));
        const changed = await change(original);
        const next = changed ?? original;
        await this.target.store.append(
          next.streamId,
          [
            {
              id: original.id,
              type: original.type,
              data: next.data,
              metadata: withCopiedFrom(next.metadata, original.position, original.recordedAt),
            },
          ],
          original.revision === 0n ? 'no_stream' : original.revision - 1n,
        );
        await check(await this.readBack(next.streamId, original), original);
        examined += 1;
        if (changed !== undefined) rewritten += 1;
      }
      after = (page.at(-1) as StoredEvent).position;
    }
  }

  /**
   * A new database holds nothing, or what an earlier run of this copy wrote: every event a copy's, and its first the
   * source's first. Anything else is refused before anything is written.
   */
  async checkTarget(): Promise<void> {
    const [[ours], [theirs]] = await Promise.all([
      this.target.log.exportEvents(0n, 1),
      this.source.exportEvents(0n, 1),
    ]);
    if (ours === undefined) return;
    const copied = copiedFromOf(JSON.parse(ours.metadata));
    const first = theirs === undefined ? undefined : asCopied(theirs);
    if (
      copied === undefined ||
      first === undefined ||
      ours.id !== first.id ||
      copied.position !== first.position.toString()
    )
      throw new RangeError('The new database holds another log: seal into an empty one');
    // Its last event too was copied here (or RangeError).
    await this.target.log.copiedUpTo();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  /** The event as the new database holds it, at its source's position, without the copy's note. */
  private async readBack(streamId: string, original: RecordedEvent): Promise<RecordedEvent> {
    const read = await this.target.store.readStream(streamId, { fromRevision: original.revision, maxCount: 1 });
    const back = read.found ? read.events[0] : undefined;
    if (back === undefined || back.id !== original.id)
      throw new Error(`The event at position ${original.position} cannot be read back from the new database`);
    const stored = asCopied({
      ...back,
      data: JSON.stringify(back.data),
      metadata: JSON.stringify(back.metadata),
    });
    return toRecorded(stored);
  }
}
