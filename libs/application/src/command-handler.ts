// Load, decide, append: the one way every change is written (Emmett's command handler, in spirit), with who
// asked for it (the context every event's metadata records). Read the stream (through a cache of folded
// states when given), fold it with `evolve`, `decide`, append the decided events at the revision read; on a
// concurrency conflict read again and decide again.
import { randomUUID } from 'node:crypto';
import { WrongExpectedRevisionError, type EventMetadata, type EventStore, type EventToAppend, type RecordedEvent } from '#event-store';

// Who asked for a change and why: the one shape every write path records as event metadata.

export type CommandContext = {
  /** `user:<id>`, `api-key:<id>`, `billing`, `cli`, `system`, `google`, `anonymous`. */
  readonly actor: string;
  /** One id for everything a request, a command-line call or a billing event caused. */
  readonly correlationId: string;
  /**
   * The message that caused the change: for a request or a command-line call the request itself,
   * i.e. its correlation id; for a reaction (a billing event) that message's id.
   */
  readonly causationId: string;
  /** Where the change came from, for auditors, stored as-is in the metadata (clientIp, userAgent, cliCommand, providerEventId...). */
  readonly origin: Readonly<Record<string, string>>;
};

/** A context of its own (correlation and causation alike): for work that no request caused, and for tests. */
export function newCommandContext(actor: string, origin: Readonly<Record<string, string>> = {}, correlationId: string = randomUUID()): CommandContext {
  return { actor, correlationId, causationId: correlationId, origin };
}

/** The metadata of every event a command records; `commandType` names the command (e.g. `AddMember`) when there is one. */
export function eventMetadata(context: CommandContext, commandType?: string): EventMetadata {
  // The origin copied, then the fields set, in the order a spread would give them: V8 builds a spread
  // literal with added properties on a slow path, and every command pays it.
  const metadata: Record<string, unknown> = Object.assign({}, context.origin);
  metadata.actor = context.actor;
  metadata.correlationId = context.correlationId;
  metadata.causationId = context.causationId;
  if (commandType !== undefined) metadata.commandType = commandType;
  return metadata as EventMetadata;
}

// Reading a stream and folding it into its state: the read half of every command, and what queries use.

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

// One command at a time per stream in this process: the seam that keeps concurrent commands on one stream
// from losing races to each other (other processes still race through the expected revision).
/**
 * The command now running on each stream of each store in this process, or the last one queued.
 * Keyed by the store object, so two stores (two nodes, in tests) still race each other through the
 * expected revision.
 */
const streamQueues = new WeakMap<EventStore, Map<string, Promise<unknown>>>();

/**
 * Runs `work` after every command this process started earlier on the same stream has ended. A command
 * decided while another one's append on the same stream is still in flight would lose to it and decide
 * again: N commands at once on one stream would need N attempts, and past MAX_DECISION_ATTEMPTS the
 * last ones were refused with a conflict no one else caused. In turn, each decides once on the state the
 * previous one left. Other processes still race through the expected revision, as before.
 */
export async function oneAtATime<T>(store: EventStore, streamId: string, work: (waited: boolean) => Promise<T>): Promise<T> {
  let queues = streamQueues.get(store);
  if (queues === undefined) {
    queues = new Map();
    streamQueues.set(store, queues);
  }
  const previous = queues.get(streamId);
  const running = previous === undefined ? work(false) : previous.then(() => work(true));
  const ended = running.then(noop, noop);
  queues.set(streamId, ended);
  try {
    return await running;
  } finally {
    if (queues.get(streamId) === ended) queues.delete(streamId);
  }
}

const noop = (): void => undefined;

// The command: decide on the state loaded, append at its revision, once more on a lost race.

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
