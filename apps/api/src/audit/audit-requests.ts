// Query strings of the audit routes: a malformed value, an unknown parameter or both points at once is 400.
import { z } from 'zod';
import { MAX_HISTORY_PAGE_SIZE } from './organization-history.js';
import type { StatePoint } from './organization-state-at.js';

const revision = z
  .string()
  .regex(/^\d{1,15}$/, 'must be a whole number of at least 0')
  .transform((value) => BigInt(value));

export const historyQuery = z.strictObject({
  fromRevision: revision.optional(),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.int().min(1).max(MAX_HISTORY_PAGE_SIZE))
    .optional(),
});

/** An instant needs its offset (Z or ±hh:mm): a local time would mean different moments to different auditors. */
const instant = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

export const stateQuery = z
  .strictObject({ asOfRevision: revision.optional(), asOf: instant.optional() })
  .refine((query) => query.asOfRevision === undefined || query.asOf === undefined, {
    // Worded for the HTTP query string; the command line checks its own flags first (org:state).
    message: 'give one point: the query parameter asOfRevision or asOf, not both',
    path: ['asOf'],
  })
  .transform((query): StatePoint => {
    if (query.asOfRevision !== undefined) return { kind: 'revision', revision: query.asOfRevision };
    if (query.asOf !== undefined) return { kind: 'instant', at: query.asOf };
    return { kind: 'latest' };
  });

export const correlationIdParameter = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/, 'is not a correlation id');
