// Reading a stream and folding it into its state: the read half of every command, and what queries use.
import type { EventStore, RecordedEvent } from '#event-store';

/** A long history is read in pages, so that folding it never holds more than a page of events. */
export const READ_PAGE_SIZE = 1000;

/** An event as `decide` proposes it and `evolve` folds it. */
export type NewEvent = { type: string; data: unknown };

/** A stream's state folded up to `revision`; `position` is that event's global position. */
export type FoldedStream<State> = { state: State; revision: bigint; position: bigint };

/** Folded states kept between commands, so that a load reads only the events recorded after the cached revision. */
export interface FoldedStreamCache<State> {
  get(streamId: string): FoldedStream<State> | undefined;
  /** Keeps the newer of the stored and the offered fold. */
  remember(streamId: string, folded: FoldedStream<State>): void;
  forget(streamId: string): void;
}

/** How a stream's events become its state. */
export type StreamFold<State, Event extends NewEvent> = {
  /** The state of a stream that does not exist yet. */
  initialState: State;
  evolve: (state: State, event: Event) => State;
  /** How a stored event is read for `evolve`; by default its type and data. */
  read?: (event: RecordedEvent) => Event;
  /**
   * Never trusted for a decision on its own: appends still carry the expected revision, so a stale entry
   * costs a retry, never a wrong decision.
   */
  cache?: FoldedStreamCache<State>;
  /** Hand the events read to `decide` and the caller (with a cache: only those after the cached revision). */
  keepRecordedEvents?: boolean;
  /**
   * Every event carries the whole state after it (`evolve` takes it from the event), so a load reads the
   * stream's last event only, backwards: one read of one event however long the stream, and no cache to keep.
   */
  lastEventHoldsState?: boolean;
};

/** A stream as loaded: revision and position are undefined while it does not exist. */
export type LoadedStream<State> = {
  state: State;
  revision: bigint | undefined;
  position: bigint | undefined;
  /** The events read (with keepRecordedEvents; else empty). */
  recorded: RecordedEvent[];
};

const typeAndData = <Event extends NewEvent>(event: RecordedEvent): Event => ({ type: event.type, data: event.data }) as Event;

/** Reads the stream (after the cached revision, in pages) and folds it. */
export async function loadStream<State, Event extends NewEvent>(
  store: EventStore,
  streamId: string,
  fold: StreamFold<State, Event>,
): Promise<LoadedStream<State>> {
  const read = fold.read ?? typeAndData<Event>;
  if (fold.lastEventHoldsState === true) return loadLastEvent(store, streamId, fold, read);
  const recorded: RecordedEvent[] = [];
  let folded = fold.cache?.get(streamId);
  for (;;) {
    const fromRevision = folded === undefined ? 0n : folded.revision + 1n;
    const page = await store.readStream(streamId, { fromRevision, maxCount: READ_PAGE_SIZE });
    if (!page.found) {
      fold.cache?.forget(streamId);
      return { state: fold.initialState, revision: undefined, position: undefined, recorded: [] };
    }
    for (const event of page.events) {
      folded = { state: fold.evolve(folded?.state ?? fold.initialState, read(event)), revision: event.revision, position: event.position };
    }
    if (fold.keepRecordedEvents === true) recorded.push(...page.events);
    if (page.events.length < READ_PAGE_SIZE) break;
  }
  if (folded === undefined) return { state: fold.initialState, revision: undefined, position: undefined, recorded };
  fold.cache?.remember(streamId, folded);
  return { ...folded, recorded };
}

async function loadLastEvent<State, Event extends NewEvent>(
  store: EventStore,
  streamId: string,
  fold: StreamFold<State, Event>,
  read: (event: RecordedEvent) => Event,
): Promise<LoadedStream<State>> {
  const page = await store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
  const last = page.found ? page.events[0] : undefined;
  if (last === undefined) return { state: fold.initialState, revision: undefined, position: undefined, recorded: [] };
  const state = fold.evolve(fold.initialState, read(last));
  return { state, revision: last.revision, position: last.position, recorded: fold.keepRecordedEvents === true ? [last] : [] };
}

