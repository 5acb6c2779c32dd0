// Who is calling and under which correlation id, for the whole of one request (AsyncLocalStorage).
import { randomUUID } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { CommandContext } from '#application';
import { currentLogContext, runWithLogContext, type LogContext } from '../logging/log-context.js';
import { callerCorrelationId } from './correlation-id.js';

export type RequestContext = LogContext & {
  /** Chorus's own id, until `identifyCaller` adopts the one the caller sent (behind the caller's name). */
  correlationId: string;
  /** Adopted only once the caller is known. */
  readonly sentCorrelationId: string | undefined;
  readonly clientIp: string | undefined;
  readonly userAgent: string | undefined;
  actor: string | undefined;
  /** The position of the last event this request appended: what a client names to read its write on any node. */
  writtenUpTo?: bigint;
};

const contextsByRequest = new WeakMap<object, RequestContext>();

// Requests not yet answered, by the correlation id their commands' events carry (two when a caller sends the same id
// twice at once): what one of them wrote is theirs whichever request's turn appended it (writes decided together).
const answeringByCorrelationId = new Map<string, Set<RequestContext>>();

function answerUnder(context: RequestContext, correlationId: string): void {
  const answering = answeringByCorrelationId.get(correlationId);
  if (answering === undefined) answeringByCorrelationId.set(correlationId, new Set([context]));
  else answering.add(context);
}

function answeredUnder(context: RequestContext, correlationId: string): void {
  const answering = answeringByCorrelationId.get(correlationId);
  if (answering?.delete(context) === true && answering.size === 0) answeringByCorrelationId.delete(correlationId);
}

/** Until its answer is sent (or its connection closes): `requestsAnsweringUnder` finds it by its correlation id. */
export function beginAnswering(context: RequestContext): () => void {
  answerUnder(context, context.correlationId);
  return () => answeredUnder(context, context.correlationId);
}

export function requestsAnsweringUnder(correlationId: string): ReadonlySet<RequestContext> | undefined {
  return answeringByCorrelationId.get(correlationId);
}

export function attachRequestContext(request: object, context: RequestContext): void {
  contextsByRequest.set(request, context);
}

/** Also where AsyncLocalStorage does not reach (body-parser errors, 'finish' listeners). */
export function requestContextOf(request: object): RequestContext | undefined {
  return contextsByRequest.get(request);
}

/** An anonymous caller's correlation id is never adopted (anyone could send anyone's). */
export function identifyCaller(context: RequestContext, actor: string): void {
  context.actor = actor;
  if (context.sentCorrelationId === undefined) return;
  const adopted = callerCorrelationId(actor, context.sentCorrelationId);
  if (adopted === context.correlationId) return;
  const answering = answeringByCorrelationId.get(context.correlationId)?.has(context) === true;
  if (answering) answeredUnder(context, context.correlationId);
  context.correlationId = adopted;
  if (answering) answerUnder(context, adopted);
}

/** A foreign field, never an index key. */
export function unadoptedCorrelationId(context: RequestContext): string | undefined {
  return context.actor === undefined ? context.sentCorrelationId : undefined;
}

export function runInRequestContext<T>(context: RequestContext, work: () => T): T {
  return runWithLogContext(context, work);
}

export function currentRequestContext(): RequestContext | undefined {
  return currentLogContext() as RequestContext | undefined;
}

/** The address is always known (sign-in throttles by it). */
export type RequestCommandContext = CommandContext & {
  readonly origin: { readonly clientIp: string; readonly userAgent?: string; readonly callerCorrelationId?: string };
};

export function commandContextOf(request: Request, actor: string): RequestCommandContext {
  const context = requestContextOf(request);
  const correlationId = context?.correlationId ?? randomUUID();
  const userAgent = (context?.userAgent ?? request.get('user-agent'))?.slice(0, 256);
  const clientIp = context?.clientIp ?? request.ip ?? 'unknown';
  const callerCorrelationId = context === undefined ? undefined : unadoptedCorrelationId(context);
  const origin = {
    clientIp,
    ...(userAgent === undefined ? {} : { userAgent }),
    ...(callerCorrelationId === undefined ? {} : { callerCorrelationId }),
  };
  return { actor, correlationId, causationId: correlationId, origin };
}

/**
 * `@PrincipalContext() context: CommandContext` in a controller method guarded by @RequireAccess: the principal is the
 * actor.
 */
export const PrincipalContext = createParamDecorator((_data: unknown, execution: ExecutionContext): CommandContext => {
  const request = execution.switchToHttp().getRequest<Request>();
  const actor = requestContextOf(request)?.actor;
  if (actor === undefined) throw new Error('A command route needs @RequireAccess: no principal was resolved.');
  return commandContextOf(request, actor);
});
