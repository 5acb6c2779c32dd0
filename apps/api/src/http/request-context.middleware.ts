import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { TrustProxy } from '#config';
import { applySecurityHeaders, type SecurityHeaders } from './security-headers.js';
import { CORRELATION_ID_HEADER, newCorrelationId, sentCorrelationIdFrom } from './correlation-id.js';
import { attachRequestContext, requestContextOf, runInRequestContext, unadoptedCorrelationId, type RequestContext } from './request-context.js';

const CORRELATION_ID_HEADER_LOWER = CORRELATION_ID_HEADER.toLowerCase();

// Paths that carry a secret in a segment (reset and invitation links, Google sign-in tokens) are logged without it.
const SECRET_PATH_SEGMENT = /^(\/reset\/|\/invite\/|\/invitations\/|\/auth\/go\/)[^/]+/;

/** What the request log says about the path: the route pattern when one matched, never the query string. */
function loggedPath(request: Request): string {
  const route: unknown = (request.route as { path?: unknown } | undefined)?.path;
  // A catch-all pattern (the SPA and XSRF middleware's '/{*path}') says nothing: log the path itself.
  if (typeof route === 'string' && !route.includes('*')) return route;
  return request.path.replace(SECRET_PATH_SEGMENT, '$1[REDACTED]');
}

export type RequestStartOptions = {
  logger: Logger;
  /** The security headers a request's answer carries, by its URL (security-headers.ts: the page's set or the API's), each worked out once. */
  securityHeaders: (url: string) => SecurityHeaders;
  /** Records each finished answer (metrics/http-metrics.ts): given the seconds since the request arrived. */
  recordAnswer: (request: Request, response: Response, seconds: number) => void;
  /** The app's `trust proxy` setting (TRUST_PROXY): whose word the client's address is taken on. */
  trustProxy: TrustProxy;
};

/**
 * The client's address, as Express's `request.ip` gives it. With no proxy trusted (the default) that is
 * the TCP peer's address, whatever X-Forwarded-For says: read from the socket directly, without
 * `request.ip`'s parse of X-Forwarded-For that would be thrown away (about 1% of GET /health's CPU).
 */
export function clientAddressOf(trustProxy: TrustProxy): (request: Request) => string | undefined {
  if (trustProxy === false) return (request) => request.socket.remoteAddress;
  return (request) => request.ip;
}

/**
 * First middleware, one Express layer for what every request gets on arrival: the security headers
 * (first, so that every answer carries them, refusals of the body parser included), the start of its
 * timing (before the body parser, so that the refusals of every later step are timed too), its
 * correlation id (in the response's X-Correlation-Id, which the access guard updates) and context; and one 'finish' listener that records the
 * answer's metrics, then writes the request's log line.
 */
export function startRequest({ logger, securityHeaders, recordAnswer, trustProxy }: RequestStartOptions) {
  const clientAddress = clientAddressOf(trustProxy);
  return (request: Request, response: Response, next: NextFunction): void => {
    const startedAt = process.hrtime.bigint();
    applySecurityHeaders(securityHeaders(request.url), response);
    const context: RequestContext = {
      correlationId: newCorrelationId(),
      sentCorrelationId: sentCorrelationIdFrom(request.headers[CORRELATION_ID_HEADER_LOWER]),
      clientIp: clientAddress(request),
      userAgent: request.headers['user-agent'],
      actor: undefined,
    };
    attachRequestContext(request, context);
    response.setHeader(CORRELATION_ID_HEADER, context.correlationId);
    response.once('finish', () => {
      const nanoseconds = Number(process.hrtime.bigint() - startedAt);
      recordAnswer(request, response, nanoseconds / 1e9);
      const status = response.statusCode;
      // An `actor` left undefined is no field of the line (pino writes no undefined value).
      const line = {
        correlationId: context.correlationId,
        callerCorrelationId: unadoptedCorrelationId(context),
        actor: context.actor,
        method: request.method,
        path: loggedPath(request),
        status,
        durationMs: nanoseconds / 1e6,
      };
      if (status >= 500) logger.error(line, 'request completed');
      else logger.info(line, 'request completed');
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
