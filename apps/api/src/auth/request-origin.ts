// Who is asking, as the identity lib records it: the request's correlation id, client address and agent.
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { RequestContext } from '#identity';
import { requestContextOf } from '../http/request-context.js';

export function identityContext(request: Request, actor = 'anonymous'): RequestContext & { clientIp: string } {
  const context = requestContextOf(request);
  const userAgent = (context?.userAgent ?? request.get('user-agent'))?.slice(0, 256);
  return {
    actor,
    correlationId: context?.correlationId ?? randomUUID(),
    clientIp: context?.clientIp ?? request.ip ?? 'unknown',
    ...(userAgent === undefined ? {} : { userAgent }),
  };
}
