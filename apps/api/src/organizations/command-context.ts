import { memberRequester, operator, type Requester } from '#domain';

/** Who asked for a command and why: becomes the metadata of every event the command records. */
export type CommandContext = {
  /** `user:<id>`, `api-key:<id>`, `billing`, `cli`. */
  actor: string;
  /** One id for everything a request (or a command-line call) caused. */
  correlationId: string;
  /**
   * The message that caused the command: for a request or a command-line call the request itself,
   * i.e. its correlation id; for a reaction (a billing event, a projection) that message's id.
   */
  causationId: string;
  /** Where the command came from, for auditors, stored as-is in the metadata (e.g. clientIp, userAgent, cliCommand). */
  origin: Readonly<Record<string, string>>;
};

/**
 * Who the domain holds to the organization's roles: the user an actor `user:<id>` names (the actor the
 * events record, so the rule and the audit trail never disagree); anyone else is an operator, whose
 * API key scopes or command-line access were checked before.
 */
export function requesterOf(context: Pick<CommandContext, 'actor'>): Requester {
  return context.actor.startsWith('user:') ? memberRequester(context.actor.slice('user:'.length)) : operator;
}
