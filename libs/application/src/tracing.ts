// Tracing by explicit spans (docs/service.md, Tracing): nothing is patched in. Every helper here does nothing
// until the app has started the OpenTelemetry SDK (apps/api/src/metrics/tracing-sdk.ts) and called `tracingStarted()`,
// so that with tracing off no span, context or parsed metadata is paid for.
// A command's W3C `traceparent` rides in the metadata of the events it appends, so that what follows from them
// (projections, reactions, mails), on this node or another, joins the command's trace.
import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/** The event metadata field that carries the W3C trace context of the command that appended it. */
export const TRACEPARENT = 'traceparent';

const propagator = new W3CTraceContextPropagator();
const fromRecord = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string) => {
    const value = carrier[key];
    return typeof value === 'string' || Array.isArray(value) ? (value as string | string[]) : undefined;
  },
};
const intoRecord = {
  set: (carrier: Record<string, string>, key: string, value: string) => void (carrier[key] = value),
};

let on = false;
let tracer: Tracer | undefined;

/** Called once the SDK is registered: from then on, the helpers here make spans. */
export function tracingStarted(): void {
  on = true;
  tracer = trace.getTracer('chorus');
}

/** After the SDK is shut down (and in tests). */
export function tracingStopped(): void {
  on = false;
  tracer = undefined;
}

export const tracingOn = (): boolean => on;

export type SpanOptions = { attributes?: Attributes; kind?: SpanKind; parent?: Context; links?: Link[] };

/**
 * `work` runs in the span (its children and log lines see it); its outcome ends it, a throw or rejection marks it
 * failed.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span | undefined) => T): T {
  if (tracer === undefined) return work(undefined);
  const parent = options.parent ?? context.active();
  const span = tracer.startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links: options.links },
    parent,
  );
  let result: T;
  try {
    result = context.with(trace.setSpan(parent, span), work, undefined, span);
  } catch (error) {
    endFailed(span, error);
    throw error;
  }
  if (result instanceof Promise) {
    return result.then(
      (value: unknown) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        endFailed(span, error);
        throw error;
      },
    ) as T;
  }
  span.end();
  return result;
}

export function endFailed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.end();
}

/** The context a caller's (or an event's) `traceparent` names; undefined when there is none, or it is malformed. */
export function traceContextFrom(carrier: Readonly<Record<string, unknown>>): Context | undefined {
  const extracted = propagator.extract(ROOT_CONTEXT, carrier, fromRecord);
  return trace.getSpanContext(extracted) === undefined ? undefined : extracted;
}

/** The `traceparent` of the active span, or undefined outside one (or with tracing off). */
export function currentTraceparent(): string | undefined {
  if (!on) return undefined;
  const carrier: Record<string, string> = {};
  propagator.inject(context.active(), carrier, intoRecord);
  return carrier[TRACEPARENT];
}

/** A traceparent's trace id: characters 3 to 35 of `00-<trace id>-<span id>-<flags>`. */
const traceIdOf = (traceparent: string): string => traceparent.slice(3, 35);

/**
 * Where a span about some recorded events belongs: in the trace of their command when they all come from one
 * (the usual live case), else a trace of its own linked to each of theirs (a batch caught up from history).
 */
export function spanPlaceFor(
  events: Iterable<{ readonly metadata: Readonly<Record<string, unknown>> }>,
  maxLinks = 32,
): { parent: Context; links: Link[] } {
  const seen = new Map<string, string>();
  // Off, no event's metadata is read: an adapter may parse it only when first read.
  if (!on) return { parent: ROOT_CONTEXT, links: [] };
  for (const event of events) {
    const traceparent = event.metadata[TRACEPARENT];
    if (typeof traceparent !== 'string' || seen.has(traceIdOf(traceparent))) continue;
    seen.set(traceIdOf(traceparent), traceparent);
    if (seen.size > maxLinks) break;
  }
  if (seen.size === 0) return { parent: ROOT_CONTEXT, links: [] };
  const contexts = [...seen.values()].map((traceparent) => traceContextFrom({ [TRACEPARENT]: traceparent }));
  const spanContexts = contexts
    .map((found) => (found === undefined ? undefined : trace.getSpanContext(found)))
    .filter((found) => found !== undefined);
  const [only] = contexts;
  if (seen.size === 1 && only !== undefined) return { parent: only, links: [] };
  return { parent: ROOT_CONTEXT, links: spanContexts.map((spanContext) => ({ context: spanContext })) };
}

export { SpanKind };
