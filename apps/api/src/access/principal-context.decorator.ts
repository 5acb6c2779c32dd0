import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { CommandContext } from '#application';
import { commandContextOf, requestContextOf } from '../http/request-context.js';
import { actorOf } from './principal.js';

/** `@PrincipalContext() context: CommandContext` in a controller method guarded by @RequireAccess: the principal is the actor. */
export const PrincipalContext = createParamDecorator((_data: unknown, execution: ExecutionContext): CommandContext => {
  const request = execution.switchToHttp().getRequest<Request>();
  const principal = requestContextOf(request)?.principal;
  if (principal === undefined) throw new Error('A command route needs @RequireAccess: no principal was resolved.');
  return commandContextOf(request, actorOf(principal));
});
