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
  if (context.sentCorrelationId !== undefined)
    context.correlationId = callerCorrelationId(actor, context.sentCorrelationId);
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
