import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { tracingOn } from '#application';
import { currentLogContext } from './log-context.js';
import { redactSecrets } from './redact-secrets.js';

/** Nest injection token for the root pino Logger (structured JSON, one line per entry). */
export const PINO = Symbol('PINO');

export type PinoOptions = {
  level: Level | 'silent';
  /** Where lines go; stdout when absent. */
  destination?: DestinationStream;
};

/**
 * pino's isoTime (`,"time":"2026-11-22T21:00:00.000Z"`), worked out once per millisecond: lines
 * written in the same millisecond (requests under load) share the string instead of each formatting it.
 */
function isoTimeByMillisecond(): () => string {
  let millisecond = Number.NaN;
  let time = '';
  return () => {
    const now = Date.now();
    if (now !== millisecond) {
      millisecond = now;
      time = `,"time":"${new Date(now).toISOString()}"`;
    }
    return time;
  };
}

export function createPino({ level, destination }: PinoOptions): Logger {
  return pino(
    {
      level,
      base: { service: 'chorus' },
      timestamp: isoTimeByMillisecond(),
      // Credentials never reach a log line, whatever object carries them (redact-secrets.ts).
      formatters: { level: (label) => ({ level: label }), log: redactSecrets, bindings: redactSecrets },
      // Every line written while a request is handled carries its correlation id and actor; within a span (tracing
      // on), its trace and span ids.
      mixin: () => {
        const context = currentLogContext();
        const fields: Record<string, string> = context === undefined ? {} : { correlationId: context.correlationId };
        if (context?.actor !== undefined) fields.actor = context.actor;
        if (tracingOn()) {
          const span = trace.getActiveSpan()?.spanContext();
          if (span !== undefined && trace.isSpanContextValid(span)) {
            fields.traceId = span.traceId;
            fields.spanId = span.spanId;
          }
        }
        return fields;
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
