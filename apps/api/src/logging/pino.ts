import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { actorOf } from '../access/principal.js';
import { currentRequestContext } from '../http/request-context.js';

/** Nest injection token for the root pino Logger (structured JSON, one line per entry). */
export const PINO = Symbol('PINO');

// Credentials never reach a log line, whatever object carries them (headers, bodies, errors, config).
const SECRET_FIELDS = ['authorization', 'cookie', 'set-cookie', 'password', 'newPassword', 'token', 'secret', 'apiKey', 'key', 'sessionSecret', 'clientSecret', 'client_secret', 'code_verifier', 'x-xsrf-token'];
export const REDACTED_PATHS = [
  ...SECRET_FIELDS.map((field) => `["${field}"]`),
  ...SECRET_FIELDS.map((field) => `*["${field}"]`),
  ...SECRET_FIELDS.map((field) => `*.*["${field}"]`),
];

export type PinoOptions = {
  level: Level | 'silent';
  /** Where lines go; stdout when absent. */
  destination?: DestinationStream;
};

export function createPino({ level, destination }: PinoOptions): Logger {
  return pino(
    {
      level,
      base: { service: 'chorus' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      // Every line written while a request is handled carries its correlation id and actor.
      mixin: () => {
        const context = currentRequestContext();
        if (context === undefined) return {};
        return context.principal === undefined
          ? { correlationId: context.correlationId }
          : { correlationId: context.correlationId, actor: actorOf(context.principal) };
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}
