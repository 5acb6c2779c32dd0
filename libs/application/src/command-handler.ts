// Load, decide, append (Emmett's command handler): the one way every change is written, retried on a concurrency
// conflict.
import { randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '#domain';
import {
  WrongExpectedRevisionError,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
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
    if (decider.fold !== undefined && newest !== undefined) {
      folded = {
        state: decider.fold(folded?.state ?? decider.initialState, page.events.map(read)),
        revision: newest.revision,
        position: newest.position,
      };
    } else {
      for (const event of page.events) {
        folded = {
          state: decider.evolve(folded?.state ?? decider.initialState, read(event)),
          revision: event.revision,
          position: event.position,
        };
      }
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

/** After this many lost races in a row the caller gets the WrongExpectedRevisionError. */
export const MAX_DECISION_ATTEMPTS = 10;

export type CommandOptions<State> = {
  cache?: FoldedStreamCache<State> | undefined;
  /** Decides first without a read; safe because the append carries its revision (a stale one costs a retry). */
  known?: Omit<LoadedStream<State>, 'recorded'> | undefined;
  /** Deterministic ids make a repeated decision recognisable; random uuids by default. */
  eventId?: (index: number) => string;
  maxAttempts?: number | undefined;
};

export type HandledCommand<State> = LoadedStream<State> & {
  appended: EventToAppend[];
};

const commandTypeOf = (command: unknown): string | undefined => {
  const type = typeof command === 'object' && command !== null ? (command as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
};

/** A refusal (the decider throws) appends nothing and is not retried. */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  id: string,
  command: Command,
  context: CommandContext,
  options: CommandOptions<State> = {},
): Promise<HandledCommand<State>> {
  const streamId = decider.streamOf(id);
  const type = commandTypeOf(command);
  // A command that waited for others on its stream decides on a read: what the caller knew is older than their appends.
  const metadata = eventMetadata(context, type);
  return inSpan(
    `command ${type ?? 'unknown'}`,
    { attributes: { 'chorus.command': type ?? 'unknown', 'chorus.stream': streamId } },
    () =>
      oneAtATime(store, streamId, (waited) =>
        decideAndAppend(store, decider, id, command, metadata, waited ? { ...options, known: undefined } : options),
      ),
  );
}

async function decideAndAppend<State, Command, Event extends DomainEvent>(
  store: EventStore,
  decider: Decider<State, Command, Event>,
  id: string,
  command: Command,
  metadata: EventMetadata,
  options: CommandOptions<State>,
): Promise<HandledCommand<State>> {
  const streamId = decider.streamOf(id);
  const maxAttempts = options.maxAttempts ?? MAX_DECISION_ATTEMPTS;
  for (let attempt = 1; ; attempt += 1) {
    const known = attempt === 1 ? options.known : undefined;
    const loaded: LoadedStream<State> =
      known === undefined
        ? await loadStream(store, decider, id, { cache: options.cache })
        : { state: known.state, revision: known.revision, position: known.position, recorded: [] };
    const events = inSpan('decide', { attributes: { 'chorus.attempt': attempt } }, (span) => {
      const decided = decider.decide(command, loaded.state);
      span?.setAttribute('chorus.events', decided.length);
      return decided;
    });
    if (events.length === 0) {
      // Nothing appended means nothing checked the known state: a no-op is answered from a read only.
      if (known !== undefined) continue;
      return { ...loaded, appended: [] };
    }
    const appended = events.map((event, index) => ({
      id: options.eventId?.(index) ?? randomUUID(),
      type: event.type,
      data: event.data,
      metadata,
    }));
    try {
      const result = await store.append(streamId, appended, loaded.revision ?? 'no_stream');
      const folded = {
        state: events.reduce(decider.evolve, loaded.state),
        revision: result.nextExpectedRevision,
        position: result.position,
      };
      options.cache?.remember(streamId, folded);
      return { ...folded, recorded: loaded.recorded, appended };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= maxAttempts) throw error;
    }
  }
}
