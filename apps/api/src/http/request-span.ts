// The HTTP request's server span (docs/service.md, Tracing): a child of the caller's W3C `traceparent` when it
// sends one, entered for the request's handling by enterRequestContext (request-context.middleware.ts) and ended
// with the answer. Nothing is made while tracing is off.
import type { Request, Response } from 'express';
import { context, ROOT_CONTEXT, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { SpanKind, traceContextFrom, tracingOn } from '#application';

type RequestSpan = { span: Span; context: Context };

const spans = new WeakMap<object, RequestSpan>();

/**
 * Called as the request arrives; a no-op with tracing off. A request whose client goes before the answer still ends its
 * span.
 */
export function startRequestSpan(request: Request, response: Response): void {
  if (!tracingOn()) return;
  const parent = traceContextFrom(request.headers) ?? ROOT_CONTEXT;
  const span = trace
    .getTracer('chorus')
    .startSpan(
      request.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method } },
      parent,
    );
  spans.set(request, { span, context: trace.setSpan(parent, span) });
  response.once('close', () => {
    const open = spans.get(request);
    if (open === undefined) return;
    spans.delete(request);
    open.span.setAttribute('chorus.answer_unfinished', true);
    open.span.setStatus({ code: SpanStatusCode.ERROR, message: 'the connection closed before the answer was sent' });
    open.span.end();
  });
}

/** `next` in the request's span, so that its commands, log lines and outbound calls are its children. */
export function runInRequestSpan<T>(request: object, work: () => T): T {
  const found = tracingOn() ? spans.get(request) : undefined;
  return found === undefined ? work() : context.with(found.context, work);
}

/**
 * `path`: as logged (a route, or a path with its secret segments redacted). Answers the span's trace id, for the
 * request's log line.
 */
export function endRequestSpan(request: Request, path: string, status: number): string | undefined {
  const found = tracingOn() ? spans.get(request) : undefined;
  if (found === undefined) return undefined;
  spans.delete(request);
  const { span } = found;
  span.updateName(`${request.method} ${path}`);
  span.setAttribute('http.route', path);
  span.setAttribute('http.response.status_code', status);
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
  return span.spanContext().traceId;
}
