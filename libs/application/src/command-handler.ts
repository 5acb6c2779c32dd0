// Load, decide, append: the one way every change is written (Emmett's command handler, in spirit).
// Read the stream (through a cache of folded states when given), fold it with `evolve`, `decide`, append
// the decided events at the revision read; on a concurrency conflict read again and decide again.
import { randomUUID } from 'node:crypto';
import { WrongExpectedRevisionError, type EventMetadata, type EventStore, type EventToAppend, type RecordedEvent } from '#event-store';
import { oneAtATime } from './one-command-per-stream.js';
import { loadStream, type LoadedStream, type NewEvent, type StreamFold } from './stream-load.js';

/**
 * Attempts per command. Each lost race means another writer recorded on the same stream meanwhile, so
 * the caller sees a conflict only as the decision it changed; one that loses this many races in a row
 * gets the WrongExpectedRevisionError (CONCURRENCY_CONFLICT).
 */
export const MAX_DECISION_ATTEMPTS = 10;

export type CommandHandlerOptions<State, Event extends NewEvent> = StreamFold<State, Event> & {
  /** Of every appended event (eventMetadata builds it from the CommandContext). */
  metadata: EventMetadata;
  /** The id of the decided event at `index`: deterministic ids make a repeated decision recognisable. Random uuids by default. */
  eventId?: (index: number) => string;
  /** MAX_DECISION_ATTEMPTS by default; 1 when a lost race must be answered as a refusal rather than decided again. */
  maxAttempts?: number;
  /**
   * The stream as the caller already knows it (what it read, or what its own append left, a moment ago):
   * the first decision is made on it without reading the stream. Never trusted on its own, as `cache`:
   * the append carries its revision, so a stale one costs a read and a second decision. `decide` is then
   * given no recorded events on that first attempt, and a decision of no events on it is made again on a
   * read (nothing would have checked it).
   */
  known?: Omit<LoadedStream<State>, 'recorded'>;
};

export type HandledCommand<State> = LoadedStream<State> & {
  /** What this command appended, with ids and metadata; empty when the decision changed nothing. */
  appended: EventToAppend[];
};

/**
 * Decides on the stream's current state and appends what was decided at the revision it was decided on
 * (`no_stream` for a new stream). `decide` may throw (a refusal): nothing is appended and it is not retried.
 * No events: nothing is appended, and the answer is where the stream already stands. Commands on one
 * stream in this process run one after the other (`oneAtATime`); `decide` must not start another command
 * on the same stream, which would wait for itself.
 */
export async function handleCommand<State, Event extends NewEvent>(
  store: EventStore,
  streamId: string,
  decide: (state: State, recorded: readonly RecordedEvent[]) => readonly Event[] | Promise<readonly Event[]>,
  options: CommandHandlerOptions<State, Event>,
): Promise<HandledCommand<State>> {
  // A command that waited for others on its stream decides on a read: what the caller knew is older than their appends.
  return oneAtATime(store, streamId, (waited) =>
    decideAndAppend(store, streamId, decide, waited && options.known !== undefined ? withoutKnown(options) : options),
  );
}

function withoutKnown<Options extends { known?: unknown }>(options: Options): Options {
  const { known: _known, ...rest } = options;
  return rest as Options;
}

async function decideAndAppend<State, Event extends NewEvent>(
  store: EventStore,
  streamId: string,
  decide: (state: State, recorded: readonly RecordedEvent[]) => readonly Event[] | Promise<readonly Event[]>,
  options: CommandHandlerOptions<State, Event>,
): Promise<HandledCommand<State>> {
  const maxAttempts = options.maxAttempts ?? MAX_DECISION_ATTEMPTS;
  for (let attempt = 1; ; attempt += 1) {
    const known = attempt === 1 ? options.known : undefined;
    const loaded: LoadedStream<State> =
      known === undefined
        ? await loadStream(store, streamId, options)
        : { state: known.state, revision: known.revision, position: known.position, recorded: [] };
    const events = await decide(loaded.state, loaded.recorded);
    if (events.length === 0) {
      // Nothing to append means nothing checks the known state: a no-op is answered from a read only.
      if (known !== undefined) continue;
      return { ...loaded, appended: [] };
    }
    const appended = events.map((event, index) => ({
      id: options.eventId?.(index) ?? randomUUID(),
      type: event.type,
      data: event.data,
      metadata: options.metadata,
    }));
    try {
      const result = await store.append(streamId, appended, loaded.revision ?? 'no_stream');
      const folded = { state: events.reduce(options.evolve, loaded.state), revision: result.nextExpectedRevision, position: result.position };
      options.cache?.remember(streamId, folded);
      return { ...folded, recorded: loaded.recorded, appended };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
    }
  }
}
