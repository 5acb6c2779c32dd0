import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { actorOf } from '../access/principal.js';
import { CORRELATION_ID_HEADER, correlationIdFrom } from './correlation-id.js';
import { attachRequestContext, requestContextOf, runInRequestContext, type RequestContext } from './request-context.js';

// Paths that carry a secret in a segment (reset and invitation links, Google sign-in tokens) are logged without it.
const SECRET_PATH_SEGMENT = /^(\/reset\/|\/invite\/|\/invitations\/|\/auth\/go\/)[^/]+/;

/** What the request log says about the path: the route pattern when one matched, never the query string. */
function loggedPath(request: Request): string {
  const route: unknown = (request.route as { path?: unknown } | undefined)?.path;
  // A catch-all pattern (the SPA and XSRF middleware's '/{*path}') says nothing: log the path itself.
  if (typeof route === 'string' && !route.includes('*')) return route;
  return request.path.replace(SECRET_PATH_SEGMENT, '$1[REDACTED]');
}

/**
 * First middleware: gives the request its correlation id (echoed in the response) and context,
 * and writes one log line when the response is finished.
 */
export function assignRequestContext(logger: Logger) {
  return (request: Request, response: Response, next: NextFunction): void => {
    const startedAt = process.hrtime.bigint();
    const context: RequestContext = {
      correlationId: correlationIdFrom(request.headers[CORRELATION_ID_HEADER.toLowerCase()]),
      clientIp: request.ip,
      userAgent: request.get('user-agent'),
      principal: undefined,
    };
    attachRequestContext(request, context);
    response.setHeader(CORRELATION_ID_HEADER, context.correlationId);
    response.on('finish', () => {
      const status = response.statusCode;
      logger[status >= 500 ? 'error' : 'info'](
        {
          correlationId: context.correlationId,
          ...(context.principal === undefined ? {} : { actor: actorOf(context.principal) }),
          method: request.method,
          path: loggedPath(request),
          status,
          durationMs: Number(process.hrtime.bigint() - startedAt) / 1e6,
        },
        'request completed',
      );
    });
    next();
  };
}

/** After the body parser (which does not keep AsyncLocalStorage): the rest of the request runs in its context. */
export function enterRequestContext(request: Request, _response: Response, next: NextFunction): void {
  const context = requestContextOf(request);
  if (context === undefined) {
    next();
    return;
  }
  runInRequestContext(context, next);
}
