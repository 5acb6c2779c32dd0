import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { TrustProxy } from '#config';
import { applySecurityHeaders, type SecurityHeaders } from './security-headers.js';
import { CORRELATION_ID_HEADER, newCorrelationId, sentCorrelationIdFrom } from './correlation-id.js';
import { endRequestSpan, runInRequestSpan, startRequestSpan } from './request-span.js';
import {
  attachRequestContext,
  beginAnswering,
  requestContextOf,
  runInRequestContext,
  unadoptedCorrelationId,
  type RequestContext,
} from './request-context.js';

const CORRELATION_ID_HEADER_LOWER = CORRELATION_ID_HEADER.toLowerCase();

// Paths that carry a secret in a segment (reset and invitation links, Google sign-in tokens) are logged without it.
const SECRET_PATH_SEGMENT = /^(\/reset\/|\/invite\/|\/invitations\/|\/auth\/go\/)[^/]+/;

/** Never the query string. */
function loggedPath(request: Request): string {
  const route: unknown = (request.route as { path?: unknown } | undefined)?.path;
  if (typeof route === 'string' && !route.includes('*')) return route;
  return request.path.replace(SECRET_PATH_SEGMENT, '$1[REDACTED]');
}

export type RequestStartOptions = {
  logger: Logger;
  securityHeaders: (url: string) => SecurityHeaders;
  /** Given the seconds since the request arrived. */
  recordAnswer: (request: Request, response: Response, seconds: number) => void;
  trustProxy: TrustProxy;
};

/** With no proxy trusted, the socket's address directly, skipping `request.ip`'s parse of X-Forwarded-For. */
export function clientAddressOf(trustProxy: TrustProxy): (request: Request) => string | undefined {
  if (trustProxy === false) return (request) => request.socket.remoteAddress;
  return (request) => request.ip;
}

/**
 * First middleware: the security headers and timing start before the body parser, so its refusals carry and time them
 * too.
 */
export function startRequest({ logger, securityHeaders, recordAnswer, trustProxy }: RequestStartOptions) {
  const clientAddress = clientAddressOf(trustProxy);
  return (request: Request, response: Response, next: NextFunction): void => {
    const startedAt = process.hrtime.bigint();
    startRequestSpan(request, response);
    applySecurityHeaders(securityHeaders(request.url), response);
    const context: RequestContext = {
      correlationId: newCorrelationId(),
      sentCorrelationId: sentCorrelationIdFrom(request.headers[CORRELATION_ID_HEADER_LOWER]),
      clientIp: clientAddress(request),
      userAgent: request.headers['user-agent'],
      actor: undefined,
    };
    attachRequestContext(request, context);
    // 'close' follows 'finish', and also ends an answer the client gave up on.
    response.once('close', beginAnswering(context));
    response.setHeader(CORRELATION_ID_HEADER, context.correlationId);
    response.once('finish', () => {
      const nanoseconds = Number(process.hrtime.bigint() - startedAt);
      recordAnswer(request, response, nanoseconds / 1e9);
      const status = response.statusCode;
      const path = loggedPath(request);
      const traceId = endRequestSpan(request, path, status);
      const line = {
        correlationId: context.correlationId,
        callerCorrelationId: unadoptedCorrelationId(context),
        actor: context.actor,
        method: request.method,
        path,
        status,
        durationMs: nanoseconds / 1e6,
        traceId,
      };
      if (status >= 500) logger.error(line, 'request completed');
      else logger.info(line, 'request completed');
    });
    next();
  };
}

/** After the body parser, which does not keep AsyncLocalStorage. */
export function enterRequestContext(request: Request, _response: Response, next: NextFunction): void {
  const context = requestContextOf(request);
  if (context === undefined) {
    runInRequestSpan(request, next);
    return;
  }
  runInRequestSpan(request, () => runInRequestContext(context, next));
}
