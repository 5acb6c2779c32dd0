// Loading a stream for a decision: its events read a page at a time and folded, after what a cache already folded.
import type { Decider, DomainEvent } from '#domain';
import type { EventStore, RecordedEvent } from '#event-store';

/** Paged, so that folding a long history never holds more than a page of events. */
export const READ_PAGE_SIZE = 1000;

/** `position` is the global position of the event at `revision`. */
export type FoldedStream<State> = { state: State; revision: bigint; position: bigint };

export interface FoldedStreamCache<State> {
  get(streamId: string): FoldedStream<State> | undefined;
  /** Keeps the newer of the stored and the offered fold. */
  remember(streamId: string, folded: FoldedStream<State>): void;
  forget(streamId: string): void;
}

/** Revision and position are undefined while the stream does not exist. */
export type LoadedStream<State> = {
  state: State;
  revision: bigint | undefined;
  position: bigint | undefined;
  recorded: RecordedEvent[];
};

export type LoadOptions<State> = {
  /** Never trusted for a decision on its own: appends still carry the expected revision. */
  cache?: FoldedStreamCache<State> | undefined;
  /** With a cache, only the events after the cached revision are handed back. */
  keepRecordedEvents?: boolean;
};

type AnyDecider<State, Event extends DomainEvent> = Decider<State, never, Event>;

const readWith = <State, Event extends DomainEvent>(
  decider: AnyDecider<State, Event>,
): ((event: RecordedEvent) => Event) =>
  decider.read ?? ((event: RecordedEvent) => ({ type: event.type, data: event.data }) as Event);

export async function loadStream<State, Event extends DomainEvent>(
  store: EventStore,
  decider: AnyDecider<State, Event>,
  id: string,
  options: LoadOptions<State> = {},
): Promise<LoadedStream<State>> {
  const streamId = decider.streamOf(id);
  const read = readWith(decider);
  if (decider.stateInLastEvent === true) return loadLastEvent(store, streamId, decider, read, options);
  const recorded: RecordedEvent[] = [];
  let folded = options.cache?.get(streamId);
  for (;;) {
    const fromRevision = folded === undefined ? 0n : folded.revision + 1n;
    const page = await store.readStream(streamId, { fromRevision, maxCount: READ_PAGE_SIZE });
    if (!page.found) {
      options.cache?.forget(streamId);
      return { state: decider.initialState, revision: undefined, position: undefined, recorded: [] };
    }
    const newest = page.events.at(-1);
    if (newest !== undefined) {
      const from = folded?.state ?? decider.initialState;
      const events = page.events.map(read);
      const state = decider.fold === undefined ? events.reduce(decider.evolve, from) : decider.fold(from, events);
      folded = { state, revision: newest.revision, position: newest.position };
    }
    if (options.keepRecordedEvents === true) recorded.push(...page.events);
    if (page.events.length < READ_PAGE_SIZE) break;
  }
  if (folded === undefined) return { state: decider.initialState, revision: undefined, position: undefined, recorded };
  options.cache?.remember(streamId, folded);
  return { ...folded, recorded };
}

async function loadLastEvent<State, Event extends DomainEvent>(
  store: EventStore,
  streamId: string,
  decider: AnyDecider<State, Event>,
  read: (event: RecordedEvent) => Event,
  options: LoadOptions<State>,
): Promise<LoadedStream<State>> {
  const page = await store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
  const last = page.found ? page.events[0] : undefined;
  if (last === undefined)
    return { state: decider.initialState, revision: undefined, position: undefined, recorded: [] };
  const state = decider.evolve(decider.initialState, read(last));
  return {
    state,
    revision: last.revision,
    position: last.position,
    recorded: options.keepRecordedEvents === true ? [last] : [],
  };
}
