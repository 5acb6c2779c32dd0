import { randomUUID } from 'node:crypto';

export const CORRELATION_ID_HEADER = 'X-Correlation-Id';

// Wide enough for uuids, trace ids and ULIDs; narrow enough that it can never inject into logs or headers.
const ACCEPTED_CORRELATION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * The id the caller sent in X-Correlation-Id when it is well-formed, else none (a bad header never fails a request).
 */
export function sentCorrelationIdFrom(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && ACCEPTED_CORRELATION_ID.test(value) ? value : undefined;
}

/** Chorus's own id for a request: a uuid, which has no ':' and so is never an id a caller sent (below). */
export const newCorrelationId = (): string => randomUUID();

/**
 * A caller's id as Chorus records it: behind who sent it (`user:<id>`, `api-key:<id>`, whose ids have no ':').
 * Two callers sending the same value, or a caller sending one of Chorus's ids, thus never share a correlation.
 */
export const callerCorrelationId = (actor: string, sent: string): string => `${actor}:${sent}`;
