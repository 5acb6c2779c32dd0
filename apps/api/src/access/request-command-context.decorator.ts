import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requestContextOf } from '../http/request-context.js';
import type { CommandContext } from '../organizations/command-context.js';
import { actorOf } from './principal.js';

/** The CommandContext of a request: its principal as actor, its correlation id, and client address and agent for auditors. */
export function commandContextOf(request: Request): CommandContext {
  const context = requestContextOf(request);
  if (context?.principal === undefined) throw new Error('A command route needs @RequireAccess: no principal was resolved.');
  const origin: Record<string, string> = {};
  if (context.clientIp !== undefined) origin.clientIp = context.clientIp;
  if (context.userAgent !== undefined) origin.userAgent = context.userAgent.slice(0, 256);
  return {
    actor: actorOf(context.principal),
    correlationId: context.correlationId,
    causationId: context.correlationId,
    origin,
  };
}

/** `@RequestCommandContext() context: CommandContext` in a controller method guarded by @RequireAccess. */
export const RequestCommandContext = createParamDecorator((_data: unknown, execution: ExecutionContext): CommandContext =>
  commandContextOf(execution.switchToHttp().getRequest<Request>()),
);
