// Load, decide, append (Emmett's command handler): the one way every change is written, retried on a concurrency
// conflict.
import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { Decider, DomainEvent } from '#domain';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type StreamAppend,
} from '#event-store';
import { loadStream, type FoldedStream, type FoldedStreamCache, type LoadedStream } from './load-stream.js';
import { eventMetadata, type CommandContext } from './command-context.js';
import { inSpan } from './tracing.js';

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

export const commandTypeOf = (command: unknown): string | undefined => {
  const type = typeof command === 'object' && command !== null ? (command as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
};

export type DecisionOptions = {
  /** The stream this process's commands take turns on (the command's main stream). */
  serializedOn: string;
  /** For the span and the events' metadata: the command's type. */
  commandType: string | undefined;
  /**
   * Decisions that queue on `serializedOn` while one runs are decided together when its turn ends, each on the state
   * the ones before it leave, and appended in one append: one commit for what an identity provider sends at once.
   * That append runs in the async context of the decision that waited first; each decision is decided in its own.
   */
  together?: boolean;
};

/**
 * A command on one or more streams: `decide` reads the streams it needs and decides each change on the fold it read;
 * every change is appended in ONE append (`appendToStreams`), each at the revision it was decided on. A lost race on
 * any of them reads and decides the whole again; this is the one place a conflict is retried.
 */
export async function handleDecision<Result>(
  store: EventStore,
  context: CommandContext,
  { serializedOn, commandType, together }: DecisionOptions,
  decide: (reads: DecisionReads) => Promise<Decision<Result>>,
): Promise<HandledDecision<Result>> {
  const metadata = eventMetadata(context, commandType);
  return inSpan(
    `command ${commandType ?? 'unknown'}`,
    { attributes: { 'chorus.command': commandType ?? 'unknown', 'chorus.stream': serializedOn } },
    () =>
      // Only where one append is all or nothing: a part written alone would stand under the others' retry.
      together === true && store.appendsAcrossStreamsAtomically && streamQueues.get(store)?.has(serializedOn) === true
        ? waitTogether(store, serializedOn, metadata, decide)
        : // A command that waited for others on its stream decides on reads: what the caller knew is older than theirs.
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
    const changes = appending(decision);
    if (changes.length === 0) {
      // Nothing appended means nothing checked what the caller knew: a no-op is answered from reads only.
      if (decision.changes.some((change) => change?.unread === true)) continue;
      return { result: decision.result, applied: [], position: undefined };
    }
    const appends = changes.map((change) => appendOf(change, metadata));
    let results: AppendResult[];
    try {
      results = await appendAll(store, appends);
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

type Waiting = {
  readonly metadata: EventMetadata;
  readonly decide: (reads: DecisionReads) => Promise<Decision<unknown>>;
  readonly resolve: (handled: HandledDecision<unknown>) => void;
  readonly reject: (error: unknown) => void;
  attempts: number;
};

/** A decision of a round: what it decided and appends, or why it refused. */
type Decided = {
  waiting: Waiting;
  decision?: Decision<unknown>;
  changes: StreamChange[];
  appends: StreamAppend[];
  error?: unknown;
};

// Per store and stream, the decisions waiting for the stream's turn that one arriving now joins.
const waitingTogether = new WeakMap<EventStore, Map<string, Waiting[]>>();

function waitTogether<Result>(
  store: EventStore,
  streamId: string,
  metadata: EventMetadata,
  decide: (reads: DecisionReads) => Promise<Decision<Result>>,
): Promise<HandledDecision<Result>> {
  return new Promise((resolve, reject) => {
    const waiting: Waiting = {
      metadata,
      // Decided in the caller's own context (its request, its trace), whoever's turn runs it.
      decide: AsyncResource.bind(decide) as Waiting['decide'],
      resolve: resolve as Waiting['resolve'],
      reject,
      attempts: 0,
    };
    let batches = waitingTogether.get(store);
    if (batches === undefined) {
      batches = new Map();
      waitingTogether.set(store, batches);
    }
    const batch = batches.get(streamId);
    if (batch !== undefined) return void batch.push(waiting);
    const started = [waiting];
    batches.set(streamId, started);
    void oneAtATime(store, streamId, () => {
      // Whoever arrives from now on waits for the next turn.
      if (batches.get(streamId) === started) batches.delete(streamId);
      return decideTogether(store, started);
    }).catch((error: unknown) => started.forEach((each) => each.reject(error)));
  });
}

/**
 * The batch's decisions in the order they arrived, each on the streams as the ones before it left them, appended in
 * ONE append (each stream once, at the revision the first decided on). A lost race decides them all again; a refusal
 * stands for its own caller once the append it was decided beside is written.
 */
async function decideTogether(store: EventStore, batch: readonly Waiting[]): Promise<void> {
  let round: Waiting[] = [...batch];
  while (round.length > 0) {
    const shared: SharedReads = new Map();
    const reads = decisionReads(store, false, shared);
    const decided: Decided[] = [];
    // Each stream once, in an order that keeps the own order of every decision taken so far.
    let order: string[] = [];
    let cutAt = round.length;
    for (const [index, waiting] of round.entries()) {
      waiting.attempts += 1;
      let decision: Decision<unknown>;
      try {
        decision = await inSpan('decide', { attributes: { 'chorus.attempt': waiting.attempts } }, () =>
          waiting.decide(reads),
        );
      } catch (error) {
        decided.push({ waiting, changes: [], appends: [], error });
        continue;
      }
      const changes = appending(decision);
      const kept = streamOrder([...decided.map((each) => each.changes), changes]);
      if (kept === undefined) {
        if (index === 0) {
          const error = new RangeError('A decision appends to one stream in two places');
          decided.push({ waiting, changes: [], appends: [], error });
          continue;
        }
        // Its streams in another order than the ones before: it waits for the next round, decided again.
        waiting.attempts -= 1;
        cutAt = index;
        break;
      }
      order = kept;
      for (const change of changes) {
        const read = shared.get(change.streamId);
        if (read === undefined) continue;
        read.fold.state = change.decided.reduce(read.evolve, read.fold.state);
        read.fold.revision = (read.fold.revision ?? -1n) + BigInt(change.decided.length);
      }
      decided.push({
        waiting,
        decision,
        changes,
        appends: changes.map((change) => appendOf(change, waiting.metadata)),
      });
    }
    const next = round.slice(cutAt);
    let results: Map<string, AppendResult> | undefined;
    let failed: unknown;
    try {
      results = await appendMerged(store, decided, order);
    } catch (error) {
      failed = error;
    }
    for (const { waiting, decision, changes, appends, error } of decided) {
      if (results === undefined) {
        // Every decision of the round stood on the changes not written.
        const retry = failed instanceof WrongExpectedRevisionError || changes.length === 0;
        if (retry && waiting.attempts < MAX_DECISION_ATTEMPTS) next.push(waiting);
        else waiting.reject(changes.length === 0 && error !== undefined ? error : failed);
      } else if (error !== undefined || decision === undefined) waiting.reject(error);
      else waiting.resolve(appliedTogether(decision, changes, appends, results));
    }
    round = next;
  }
}

/** Each stream once, in an order that keeps every decision's own order of streams; undefined when none does. */
function streamOrder(decisions: ReadonlyArray<readonly StreamChange[]>): string[] | undefined {
  const after = new Map<string, Set<string>>();
  const blockers = new Map<string, number>();
  for (const changes of decisions)
    changes.forEach((change, index) => {
      if (!after.has(change.streamId)) after.set(change.streamId, new Set());
      blockers.set(change.streamId, blockers.get(change.streamId) ?? 0);
      const previous = changes[index - 1]?.streamId;
      if (previous === undefined || previous === change.streamId || after.get(previous)?.has(change.streamId)) return;
      after.get(previous)?.add(change.streamId);
      blockers.set(change.streamId, (blockers.get(change.streamId) ?? 0) + 1);
    });
  const order: string[] = [];
  while (order.length < after.size) {
    const free = [...blockers].find(([streamId, count]) => count === 0 && !order.includes(streamId))?.[0];
    if (free === undefined) return undefined;
    order.push(free);
    for (const streamId of after.get(free) ?? []) blockers.set(streamId, (blockers.get(streamId) ?? 0) - 1);
  }
  return order;
}

/** The round's changes in one append; what each stream's part answered, by stream (none when nothing appends). */
async function appendMerged(
  store: EventStore,
  decided: readonly Decided[],
  order: readonly string[],
): Promise<Map<string, AppendResult>> {
  const parts = new Map<string, { streamId: string; events: EventToAppend[]; expectedRevision: ExpectedRevision }>();
  for (const streamId of order) parts.set(streamId, { streamId, events: [], expectedRevision: 'no_stream' });
  for (const { appends } of decided)
    for (const append of appends) {
      const part = parts.get(append.streamId) as StreamAppend & { events: EventToAppend[] };
      if (part.events.length === 0) part.expectedRevision = append.expectedRevision;
      part.events.push(...append.events);
    }
  const results = new Map<string, AppendResult>();
  if (parts.size === 0) return results;
  const answered = await appendAll(store, [...parts.values()]);
  order.forEach((streamId, index) => results.set(streamId, answered[index] as AppendResult));
  return results;
}

/**
 * One decision's share of the append: its own revisions; its positions are its part's last, which a reader reaches
 * only with the whole append (one commit), so waiting for them is waiting for this decision's events.
 */
function appliedTogether(
  decision: Decision<unknown>,
  changes: readonly StreamChange[],
  appends: readonly StreamAppend[],
  results: ReadonlyMap<string, AppendResult>,
): HandledDecision<unknown> {
  const applied = changes.map((change, index) => {
    const before = change.expectedRevision === 'no_stream' ? -1n : (change.expectedRevision as bigint);
    const part = results.get(change.streamId) as AppendResult;
    const result = { nextExpectedRevision: before + BigInt(change.decided.length), position: part.position };
    return { ...change.applied(result), streamId: change.streamId, appended: [...(appends[index]?.events ?? [])] };
  });
  let position: bigint | undefined;
  for (const change of applied) if (position === undefined || change.position > position) position = change.position;
  return { result: decision.result, applied, position };
}

/** The changes a decision appends: none for a stream it left as it was. */
const appending = (decision: Decision<unknown>): StreamChange[] =>
  decision.changes.filter((change): change is StreamChange => change !== undefined && change.decided.length > 0);

const appendOf = (
  change: StreamChange,
  metadata: EventMetadata,
): { streamId: string; events: EventToAppend[]; expectedRevision: ExpectedRevision } => ({
  streamId: change.streamId,
  events: change.decided.map((event, index) => ({
    id: change.ids[index] as string,
    type: event.type,
    data: event.data,
    metadata: change.metadata ?? metadata,
  })),
  expectedRevision: change.expectedRevision,
});

const appendAll = (store: EventStore, appends: readonly StreamAppend[]): Promise<AppendResult[]> =>
  appends.length === 1
    ? store.append(appends[0]!.streamId, appends[0]!.events, appends[0]!.expectedRevision).then((result) => [result])
    : store.appendToStreams(appends);

/** Where a decision taken together with others reads: each stream once per attempt, with the changes before it. */
type SharedReads = Map<
  string,
  { fold: LoadedStream<unknown>; evolve: (state: unknown, event: DomainEvent) => unknown }
>;

function decisionReads(store: EventStore, trustKnown: boolean, shared?: SharedReads): DecisionReads {
  return {
    async stream<State, Command, Event extends DomainEvent>(
      decider: Decider<State, Command, Event>,
      id: string,
      options: ReadOptions<State> = {},
    ): Promise<StreamForDecision<State, Command>> {
      const known = trustKnown ? options.known : undefined;
      const streamId = decider.streamOf(id);
      const before = shared?.get(streamId)?.fold as LoadedStream<State> | undefined;
      const loaded: LoadedStream<State> =
        before !== undefined
          ? { ...before }
          : known === undefined
            ? await loadStream(store, decider, id, {
                cache: options.cache,
                keepRecordedEvents: options.keepRecordedEvents,
              })
            : known === 'no_stream'
              ? { state: decider.initialState, revision: undefined, position: undefined, recorded: [] }
              : { state: known.state, revision: known.revision, position: known.position, recorded: [] };
      if (before === undefined)
        shared?.set(streamId, {
          fold: { ...loaded },
          evolve: decider.evolve as (s: unknown, e: DomainEvent) => unknown,
        });
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
