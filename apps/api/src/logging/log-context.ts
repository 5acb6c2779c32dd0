// What every log line written while a request is handled carries: its correlation id and, once known, its
// actor. Held in AsyncLocalStorage; the HTTP layer runs each request in its own (request-context.ts).
import { AsyncLocalStorage } from 'node:async_hooks';

export type LogContext = { correlationId: string; actor: string | undefined };

const storage = new AsyncLocalStorage<LogContext>();

export const runWithLogContext = <T>(context: LogContext, work: () => T): T => storage.run(context, work);

export const currentLogContext = (): LogContext | undefined => storage.getStore();
