// A command on one stream: handleDecision's one-stream case, answering the stream as the append left it.
import type { Decider, DomainEvent } from '#domain';
import type { EventStore, EventToAppend } from '#event-store';
import { type CommandContext } from './command-context.js';
import { commandTypeOf, handleDecision, type AppliedChange, type ReadOptions } from './command-handler.js';
import type { LoadedStream } from './load-stream.js';

export type CommandOptions<State> = ReadOptions<State> & {
  /** Deterministic ids make a repeated decision recognisable; random uuids by default. */
  eventId?: (index: number) => string;
};

export type HandledCommand<State> = LoadedStream<State> & {
  appended: EventToAppend[];
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
