// Who asked for a change and why: the one shape every write path records as event metadata.
import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '#event-store';

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
