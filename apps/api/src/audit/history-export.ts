// The whole history as a file ("Download JSON lines", "Download CSV", `chorus org:history --format`):
// the stream read a page at a time and written as it is read, with the words the timeline shows. Memory
// holds one page and the organization's state (for the names of removed members and sites), never the history.
import { Inject, Injectable } from '@nestjs/common';
import { organizationStream } from '#domain';
import {
  CHAIN_GENESIS,
  CHAINED_LOG,
  checkpointLine,
  EVENT_STORE,
  eventDigest,
  eventProof,
  skippedLine,
  type ChainedEvent,
  type ChainedLog,
  type EventStore,
  type RecordedEvent,
} from '#event-store';
import type { HistoryFilter } from '#read-models';
import { ActorNameLookup } from './actor-name-lookup.js';
import { exportHeader, exportLine, type ExportFormat } from './history-export-format.js';
import { HistoryInWords } from './history-in-words.js';
import { organizationNotFound } from './organization-history.js';
import { actorOf, type TimelineEntry } from './timeline-entry.js';
import { CheckpointRefusal, HistoryCheckpoints } from '../history-proof/history-checkpoints.js';
import { ProblemError } from '../http/problem-error.js';

/** Events per read, and per chunk written. */
export const EXPORT_PAGE_SIZE = 500;
/** The log read a page at a time for a proof; another stream's events become digests, this many to a line. */
const CHAIN_PAGE_SIZE = 2_000;
const DIGESTS_PER_LINE = 1_000;

const notChained = (position: bigint): ProblemError =>
  new ProblemError(
    409,
    'NOT_CHAINED',
    'The log is not chained',
    `The event at position ${position} has no hash: run chorus store:chain --yes, then export with the proof`,
  );

/**
 * The log walked in position order for an export's proof: `to(position)` yields the "skipped" lines of the other
 * streams' events before that position and returns the event there, with the hash before it.
 */
class ChainWalk {
  private page: ChainedEvent[] = [];
  private index = 0;

  /** `previous`: the hash of the event at `after` (the one before the first exported). */
  constructor(
    private readonly log: ChainedLog,
    private after: bigint,
    private previous: Buffer,
  ) {}

  async *to(position: bigint): AsyncGenerator<string, { event: ChainedEvent & { hash: Buffer }; previous: Buffer }> {
    const skipping = new Skipped();
    for (;;) {
      const event = await this.next(position);
      if (event.position === position) {
        const line = skipping.flush();
        if (line !== undefined) yield line;
        const previous = this.previous;
        this.previous = event.hash;
        return { event, previous };
      }
      const full = skipping.add(event);
      if (full !== undefined) yield full;
      this.previous = event.hash;
    }
  }

  /** The other streams' events up to `position` (the checkpoint's), as "skipped" lines. */
  async *rest(position: bigint): AsyncGenerator<string> {
    const skipping = new Skipped();
    while (this.after < position) {
      const event = await this.next(position);
      const full = skipping.add(event);
      if (full !== undefined) yield full;
      this.previous = event.hash;
    }
    const line = skipping.flush();
    if (line !== undefined) yield line;
  }

  private async next(wanted: bigint): Promise<ChainedEvent & { hash: Buffer }> {
    if (this.index >= this.page.length) {
      this.page = await this.log.readChain(this.after, CHAIN_PAGE_SIZE);
      this.index = 0;
    }
    const event = this.page[this.index];
    if (event === undefined || event.hash === null) throw notChained(event?.position ?? wanted);
    this.index += 1;
    this.after = event.position;
    return event as ChainedEvent & { hash: Buffer };
  }
}

/** Digests of consecutive events, a line's worth at a time. */
class Skipped {
  private from: bigint | undefined;
  private digests: string[] = [];

  add(event: ChainedEvent): string | undefined {
    this.from ??= event.position;
    this.digests.push(eventDigest(event).toString('hex'));
    return this.digests.length === DIGESTS_PER_LINE ? this.flush() : undefined;
  }

  flush(): string | undefined {
    const from = this.from;
    if (from === undefined) return undefined;
    const line = skippedLine({
      from: from.toString(),
      to: (from + BigInt(this.digests.length) - 1n).toString(),
      digests: this.digests,
    });
    this.from = undefined;
    this.digests = [];
    return line;
  }
}

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
    @Inject(CHAINED_LOG) private readonly chain: ChainedLog | null,
    private readonly actorNames: ActorNameLookup,
    private readonly checkpoints: HistoryCheckpoints,
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

  /**
   * The whole history as JSON lines with its proof (docs/history.md): each event line with the event as stored and
   * its hashes, the other streams' events between as digests, and a signed checkpoint covering the last event. Its
   * checkpoint is signed (if the latest does not cover the last event) before the first chunk, so a refusal is still an
   * HTTP answer.
   */
  async openWithProof(organizationId: string): Promise<AsyncIterable<string>> {
    const chain = this.chain;
    if (chain === null)
      throw new ProblemError(
        409,
        'NOT_CHAINED',
        'The log keeps no chain',
        'This store keeps no chain of its log yet, so its history cannot be exported with a proof: the embedded store and PostgreSQL do; EventStoreDB chains only each stream on its own (docs/history.md)',
      );
    const first = await this.readPage(organizationId, 0n);
    if (first === undefined || first[0] === undefined) throw organizationNotFound();
    const last = await this.store.readStream(organizationStream(organizationId), {
      direction: 'backwards',
      maxCount: 1,
    });
    const lastPosition = last.found ? (last.events[0]?.position ?? first[0].position) : first[0].position;
    let checkpoint;
    try {
      checkpoint = await this.checkpoints.covering(lastPosition);
    } catch (error) {
      if (!(error instanceof CheckpointRefusal)) throw error;
      throw new ProblemError(409, error.code, 'No checkpoint could be signed', error.message);
    }
    const startAt = first[0].position;
    // The hash before the first event is taken as given: the checkpoint at the end is what the lines must reach.
    const [before] = startAt > 1n ? await chain.readChain(startAt - 2n, 1) : [];
    if (before !== undefined && before.hash === null) throw notChained(before.position);
    const walk = new ChainWalk(chain, startAt - 1n, before?.hash ?? CHAIN_GENESIS);
    return this.proofChunks(organizationId, first, walk, checkpoint);
  }

  private async *proofChunks(
    organizationId: string,
    first: RecordedEvent[],
    walk: ChainWalk,
    checkpoint: Awaited<ReturnType<HistoryCheckpoints['covering']>>,
  ): AsyncGenerator<string> {
    const words = new HistoryInWords(this.actorNames, organizationId);
    const signedTo = BigInt(checkpoint.position);
    for (let page: RecordedEvent[] | undefined = first; page !== undefined && page.length > 0;) {
      const covered = page.filter((event) => event.position <= signedTo);
      const entries: TimelineEntry[] = await words.entries(covered, () => true);
      let chunk = '';
      for (const entry of entries) {
        const steps = walk.to(BigInt(entry.position));
        let step = await steps.next();
        for (; step.done !== true; step = await steps.next()) {
          // The lines before, then the skipped events: in the log's order.
          if (chunk !== '') yield chunk;
          chunk = '';
          yield step.value;
        }
        chunk += `${JSON.stringify({ ...entry, proof: eventProof(step.value.event, step.value.previous) })}\n`;
      }
      if (chunk !== '') yield chunk;
      const lastRead = page.at(-1);
      page =
        page.length < EXPORT_PAGE_SIZE || lastRead === undefined || lastRead.position >= signedTo
          ? undefined
          : await this.readPage(organizationId, lastRead.revision + 1n);
    }
    // From the last event to the checkpoint's position: the other streams' events, then the checkpoint.
    yield* walk.rest(signedTo);
    yield checkpointLine(checkpoint);
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
