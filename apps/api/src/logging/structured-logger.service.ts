import { Inject, Injectable, type LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';
import { PINO } from './pino.js';

const STACK_TRACE = /\n\s+at /;

/**
 * Nest's start-up chatter (every module initialised, every route mapped, "successfully started" before
 * the port is even bound): about 60 lines that would bury the start-up banner. Kept, at debug.
 */
const NEST_START_UP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/**
 * Nest's LoggerService over pino, so `new Logger('Context').log(...)` anywhere writes one JSON line
 * (with the request's correlation id, see createPino's mixin).
 */
@Injectable()
export class StructuredLogger implements LoggerService {
  constructor(@Inject(PINO) private readonly pino: Logger) {}

  log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams.at(-1);
    this.write(
      typeof context === 'string' && NEST_START_UP_CONTEXTS.has(context) ? 'debug' : 'info',
      message,
      optionalParams,
    );
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    this.write('error', message, optionalParams);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.write('warn', message, optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.write('debug', message, optionalParams);
  }

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.write('trace', message, optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.write('fatal', message, optionalParams);
  }

  // Nest passes (message, context) or, for errors, (message, stack, context).
  private write(
    level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal',
    message: unknown,
    optionalParams: unknown[],
  ): void {
    const params = [...optionalParams];
    const last = params.at(-1);
    const context = typeof last === 'string' && !STACK_TRACE.test(last) ? (params.pop() as string) : undefined;
    const stack = params.find((param): param is string => typeof param === 'string' && STACK_TRACE.test(param));
    const fields: Record<string, unknown> = {};
    if (context !== undefined) fields.context = context;
    if (stack !== undefined) fields.stack = stack;
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.pino[level](fields, String(message));
    }
  }
}
