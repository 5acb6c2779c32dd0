import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ProblemError } from '../../http/problem-error.js';
import { commandContextOf } from '../../http/request-context.js';
import type { Principal } from '../principal.js';
import { PrincipalResolverProvider, type PrincipalResolver } from '../principal-resolver.js';
import { ApiKeys } from './api-keys.service.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * `Authorization: Bearer <key>`: asked first, a wrong or revoked key is refused rather than passed on to other
 * resolvers.
 */
@PrincipalResolverProvider({ order: 10 })
@Injectable()
export class ApiKeyResolver implements PrincipalResolver {
  constructor(private readonly apiKeys: ApiKeys) {}

  async resolve(request: Request): Promise<Principal | undefined> {
    const header = request.get('authorization');
    if (header === undefined) return undefined;
    const bearer = BEARER.exec(header)?.[1];
    if (bearer === undefined) return undefined;
    const key = await this.apiKeys.authenticate(bearer, commandContextOf(request, 'api-key'));
    if (key === undefined)
      throw new ProblemError(401, 'UNAUTHENTICATED', 'Authentication required', 'The API key is not valid.');
    return { kind: 'api-key', ...key };
  }
}
