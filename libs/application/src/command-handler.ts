// Load, decide, append (Emmett's command handler): the one way every change is written, retried on a concurrency
// conflict.
import { randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '#domain';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type RecordedEvent,
} from '#event-store';
import { inSpan } from './tracing.js';

export type CommandContext = {
  /** `user:<id>`, `api-key:<id>`, `billing`, `cli`, `system`, `google`, `anonymous`. */
  readonly actor: string;
  readonly correlationId: string;
  /** The correlation id for a request or a command-line call; for a reaction, the id of the message reacted to. */
  readonly causationId: string;
  readonly origin: Readonly<Record<string, string>>;
};

export function newCommandContext(
  actor: string,
  origin: Readonly<Record<string, string>> = {},
  correlationId: string = randomUUID(),
): CommandContext {
  return { actor, correlationId, causationId: correlationId, origin };
}

export function eventMetadata(context: CommandContext, commandType?: string): EventMetadata {
  // Not a spread: V8 builds a spread literal with added properties on a slow path, and every command pays it.
  const metadata: Record<string, unknown> = Object.assign({}, context.origin);
  metadata.actor = context.actor;
  metadata.correlationId = context.correlationId;
  metadata.causationId = context.causationId;
  if (commandType !== undefined) metadata.commandType = commandType;
  return metadata as EventMetadata;
}

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

// Keyed by the store object, so two stores (two nodes, in tests) still race each other through the expected revision.
const streamQueues = new WeakMap<EventStore, Map<string, Promise<unknown>>>();

/**
 * Serialises this process's commands per stream: concurrent ones would lose races to each other and, past
 * MAX_DECISION_ATTEMPTS, be refused with a conflict no one else caused. Other processes still race.
 */
export async function oneAtATime<T>(
  store: EventStore,
  streamId: string,
  work: (waited: boolean) => Promise<T>,
): Promise<T> {
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

/**
 * After this many lost races in a row the caller gets the WrongExpectedRevisionError. A process's own commands take
 * turns per stream, so only other processes race it: two nodes busy on one stream each win about every other race,
 * and ten in a row were lost by about one command in a thousand, which an identity provider then saw as a 503. Fifty
 * is never reached by a race, only by a stream that keeps changing for a reason no retry mends.
 */
export const MAX_DECISION_ATTEMPTS = 50;

export type ReadOptions<State> = {
  /** Never trusted for a decision on its own: appends still carry the expected revision. */
  cache?: FoldedStreamCache<State> | undefined;
  /**
   * The stream as the caller knows it (just read, or `'no_stream'` for a stream it expects new): the first decision
   * is made on it without a read, and a stale one costs the retry its append's revision brings.
   */
  known?: Omit<LoadedStream<State>, 'recorded'> | 'no_stream' | undefined;
  /** The events read, beside their fold (with a cache, those after the cached revision). */
  keepRecordedEvents?: boolean;
};

export type ChangeOptions = {
  /** Deterministic ids, so a repeated decision is recognised; random uuids by default. */
  eventId?: (index: number) => string;
  /** Whose change this is, when the decision records several callers' changes together (their own metadata). */
  context?: CommandContext;
};

/** What a decision appends to one stream: its events, at the revision it was decided on. */
export type StreamChange = {
  readonly streamId: string;
  /** Its own metadata, when it is not the decision's. */
  readonly metadata?: EventMetadata;
  readonly decided: readonly DomainEvent[];
  readonly ids: readonly string[];
  readonly expectedRevision: ExpectedRevision;
  /** Decided on what the caller knew, not on a read: a no-op cannot stand on it. */
  readonly unread: boolean;
  /** The stream folded to the revision the append gave it, and remembered in its cache. */
  readonly applied: (result: AppendResult) => FoldedStream<unknown>;
};

/**
 * A change the decision considered and does not make: it appends nothing, but was it decided on what the caller knew
 * rather than on a read, the decision is made again on reads before it can stand as a no-op.
 */
export const withdrawn = (change: StreamChange): StreamChange => ({ ...change, decided: [], ids: [] });

/** A stream as a decision reads it: its fold, and `decide` for what the command appends to it. */
export type StreamForDecision<State, Command> = LoadedStream<State> & {
  /** Refuses by throwing, as the decider does. */
  decide(command: Command, options?: ChangeOptions): StreamChange;
  /** Several commands in turn, each decided on the state the ones before leave: one change, their events in order. */
  decideAll(commands: readonly Command[]): StreamChange;
};

/** Where a decision reads the streams it decides on; every read is part of the attempt it is made in. */
export type DecisionReads = {
  stream<State, Command, Event extends DomainEvent>(
    decider: Decider<State, Command, Event>,
    id: string,
    options?: ReadOptions<State>,
  ): Promise<StreamForDecision<State, Command>>;
};

/** What a decision answers: the changes to append together, and whatever else the caller asked it to find. */
export type Decision<Result> = { changes: ReadonlyArray<StreamChange | undefined>; result: Result };

/** A change as appended: the stream folded to its new revision, and the events it was given. */
export type AppliedChange<State> = FoldedStream<State> & { streamId: string; appended: EventToAppend[] };

export type HandledDecision<Result> = {
  result: Result;
  /** In the order of the decision's changes, those that appended. */
  applied: AppliedChange<unknown>[];
  /** The position of the last event appended; undefined when the decision appended nothing. */
  position: bigint | undefined;
};

export type CommandOptions<State> = ReadOptions<State> & {
  /** Deterministic ids make a repeated decision recognisable; random uuids by default. */
  eventId?: (index: number) => string;
};

export type HandledCommand<State> = LoadedStream<State> & {
  appended: EventToAppend[];
};

const commandTypeOf = (command: unknown): string | undefined => {
  const type = typeof command === 'object' && command !== null ? (command as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
};

/**
 * The one application path for a command on one stream: load, decide, append at the revision decided on, retried
 * on a lost race. A refusal (the decider throws) appends nothing and is not retried.
 */
export function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  id: string,
  command: Command,
  context: CommandContext,
  options: CommandOptions<State> = {},
): Promise<HandledCommand<State>> {
  return handleCommandOn(store, decider, id, () => command, context, {
    ...options,
    commandType: commandTypeOf(command),
  });
}

/**
 * handleCommand for a command whose facts are read after the stream it decides on (the sessions open since the state
 * decided on, what another stream says of the holder): `commandOf` runs again with each attempt's read.
 */
export async function handleCommandOn<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  id: string,
  commandOf: (stream: LoadedStream<State>) => Command | Promise<Command>,
  context: CommandContext,
  options: CommandOptions<State> & { commandType?: string | undefined } = {},
): Promise<HandledCommand<State>> {
  const handled = await handleDecision<LoadedStream<State>>(
    store,
    context,
    { serializedOn: decider.streamOf(id), commandType: options.commandType },
    async (reads) => {
      const stream = await reads.stream(decider, id, options);
      return { changes: [stream.decide(await commandOf(stream), { eventId: options.eventId })], result: stream };
    },
  );
  const applied = handled.applied[0] as AppliedChange<State> | undefined;
  if (applied === undefined) return { ...handled.result, appended: [] };
  return {
    state: applied.state,
    revision: applied.revision,
    position: applied.position,
    recorded: handled.result.recorded,
    appended: applied.appended,
  };
}

export type DecisionOptions = {
  /** The stream this process's commands take turns on (the command's main stream). */
  serializedOn: string;
  /** For the span and the events' metadata: the command's type. */
  commandType: string | undefined;
};

/**
 * A command on one or more streams: `decide` reads the streams it needs and decides each change on the fold it read;
 * every change is appended in ONE append (`appendToStreams`), each at the revision it was decided on. A lost race on
 * any of them reads and decides the whole again; this is the one place a conflict is retried.
 */
export async function handleDecision<Result>(
  store: EventStore,
  context: CommandContext,
  { serializedOn, commandType }: DecisionOptions,
  decide: (reads: DecisionReads) => Promise<Decision<Result>>,
): Promise<HandledDecision<Result>> {
  const metadata = eventMetadata(context, commandType);
  return inSpan(
    `command ${commandType ?? 'unknown'}`,
    { attributes: { 'chorus.command': commandType ?? 'unknown', 'chorus.stream': serializedOn } },
    () =>
      // A command that waited for others on its stream decides on reads: what the caller knew is older than theirs.
      oneAtATime(store, serializedOn, (waited) => decideAndAppend(store, metadata, decide, !waited)),
  );
}

async function decideAndAppend<Result>(
  store: EventStore,
  metadata: EventMetadata,
  decide: (reads: DecisionReads) => Promise<Decision<Result>>,
  trustKnown: boolean,
): Promise<HandledDecision<Result>> {
  for (let attempt = 1; ; attempt += 1) {
    const reads = decisionReads(store, attempt === 1 && trustKnown);
    const decision = await inSpan('decide', { attributes: { 'chorus.attempt': attempt } }, () => decide(reads));
    const changes = decision.changes.filter(
      (change): change is StreamChange => change !== undefined && change.decided.length > 0,
    );
    if (changes.length === 0) {
      // Nothing appended means nothing checked what the caller knew: a no-op is answered from reads only.
      if (decision.changes.some((change) => change?.unread === true)) continue;
      return { result: decision.result, applied: [], position: undefined };
    }
    const appends = changes.map((change) => ({
      streamId: change.streamId,
      events: change.decided.map((event, index) => ({
        id: change.ids[index] as string,
        type: event.type,
        data: event.data,
        metadata: change.metadata ?? metadata,
      })),
      expectedRevision: change.expectedRevision,
    }));
    let results: AppendResult[];
    try {
      results =
        appends.length === 1
          ? [await store.append(appends[0]!.streamId, appends[0]!.events, appends[0]!.expectedRevision)]
          : await store.appendToStreams(appends);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_DECISION_ATTEMPTS) throw error;
      continue;
    }
    const applied = changes.map((change, index) => ({
      ...change.applied(results[index] as AppendResult),
      streamId: change.streamId,
      appended: appends[index]?.events ?? [],
    }));
    return { result: decision.result, applied, position: results.at(-1)?.position };
  }
}

function decisionReads(store: EventStore, trustKnown: boolean): DecisionReads {
  return {
    async stream<State, Command, Event extends DomainEvent>(
      decider: Decider<State, Command, Event>,
      id: string,
      options: ReadOptions<State> = {},
    ): Promise<StreamForDecision<State, Command>> {
      const known = trustKnown ? options.known : undefined;
      const loaded: LoadedStream<State> =
        known === undefined
          ? await loadStream(store, decider, id, {
              cache: options.cache,
              keepRecordedEvents: options.keepRecordedEvents,
            })
          : known === 'no_stream'
            ? { state: decider.initialState, revision: undefined, position: undefined, recorded: [] }
            : { state: known.state, revision: known.revision, position: known.position, recorded: [] };
      const streamId = decider.streamOf(id);
      const changeOf = (
        decided: readonly Event[],
        { eventId, context }: ChangeOptions = {},
        commandType?: string,
      ): StreamChange => ({
        streamId,
        ...(context === undefined ? {} : { metadata: eventMetadata(context, commandType) }),
        decided,
        ids: decided.map((_, index) => eventId?.(index) ?? randomUUID()),
        expectedRevision: loaded.revision ?? 'no_stream',
        unread: known !== undefined,
        applied: (result) => {
          const folded = {
            state: decided.reduce(decider.evolve, loaded.state),
            revision: result.nextExpectedRevision,
            position: result.position,
          };
          options.cache?.remember(streamId, folded);
          return folded;
        },
      });
      return {
        ...loaded,
        decide: (command, changeOptions) =>
          changeOf(decider.decide(command, loaded.state), changeOptions, commandTypeOf(command)),
        decideAll: (commands) => {
          const decided: Event[] = [];
          let state = loaded.state;
          for (const command of commands) {
            const events = decider.decide(command, state);
            decided.push(...events);
            state = events.reduce(decider.evolve, state);
          }
          return changeOf(decided);
        },
      };
    },
  };
}
