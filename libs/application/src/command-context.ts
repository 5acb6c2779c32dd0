// Who asks for a change and why: the context a command runs in, and the metadata its events carry.
import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '#event-store';

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
