import { randomUUID } from 'node:crypto';

export const CORRELATION_ID_HEADER = 'X-Correlation-Id';

// Wide enough for uuids, trace ids and ULIDs; narrow enough that it can never inject into logs or headers.
const ACCEPTED_CORRELATION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** The caller's correlation id when it is well-formed, else a new one (a bad header never fails a request). */
export function correlationIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && ACCEPTED_CORRELATION_ID.test(value) ? value : randomUUID();
}
