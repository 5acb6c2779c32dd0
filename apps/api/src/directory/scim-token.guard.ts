// `/scim/v2` is the identity provider's: a directory token (`Authorization: Bearer chscim_...`) stands for one
// organization, whose directory alone it reaches; every change it makes is recorded as `scim:<token id>`.
import { type CanActivate, type ExecutionContext, Injectable, createParamDecorator } from '@nestjs/common';
import type { Request, Response } from 'express';
import { scimActor } from '#domain';
import { CORRELATION_ID_HEADER } from '../http/correlation-id.js';
import { commandContextOf, identifyCaller, requestContextOf } from '../http/request-context.js';
import { DirectoryTokens, type ScimCaller } from './directory-tokens.service.js';
import { ScimRequestLog } from './scim-request-log.service.js';
import { ScimError } from './scim-messages.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const callers = new WeakMap<Request, ScimCaller>();

@Injectable()
export class ScimTokenGuard implements CanActivate {
  constructor(
    private readonly directory: DirectoryTokens,
    private readonly log: ScimRequestLog,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const bearer = BEARER.exec(request.get('authorization') ?? '')?.[1];
    const caller =
      bearer === undefined ? undefined : await this.directory.authenticate(bearer, commandContextOf(request, 'scim'));
    if (caller === undefined) {
      context.switchToHttp().getResponse<Response>().setHeader('WWW-Authenticate', 'Bearer realm="Chorus SCIM"');
      throw new ScimError(
        401,
        'A directory token is required: Authorization: Bearer <token from the organization’s Directory page>.',
      );
    }
    callers.set(request, caller);
    const requestContext = requestContextOf(request);
    // How each authenticated request ended, for the Directory page: its status once answered, whatever the answer.
    const response = context.switchToHttp().getResponse<Response>();
    const correlationId = requestContext?.correlationId ?? '';
    response.once('finish', () =>
      this.log.record(caller.organizationId, {
        method: request.method,
        path: request.path,
        status: response.statusCode,
        tokenId: caller.tokenId,
        correlationId,
      }),
    );
    if (requestContext !== undefined) {
      identifyCaller(requestContext, scimActor(caller.tokenId));
      context.switchToHttp().getResponse<Response>().setHeader(CORRELATION_ID_HEADER, requestContext.correlationId);
    }
    return true;
  }
}

/** `@Caller() caller: ScimCaller` on a route behind ScimTokenGuard. */
export const Caller = createParamDecorator((_data: unknown, execution: ExecutionContext): ScimCaller => {
  const caller = callers.get(execution.switchToHttp().getRequest<Request>());
  if (caller === undefined) throw new Error('A SCIM route needs ScimTokenGuard.');
  return caller;
});
