import { z } from 'zod';
import { ORGANIZATION_EVENT_TYPES, type OrganizationEventType } from '#domain';
import type { HistoryFilter } from '#read-models';
import { readQuery } from '../read-models/position-wait.js';
import { EXPORT_FORMATS, type ExportFormat } from './history-export-format.js';
import { MAX_HISTORY_PAGE_SIZE } from './organization-history.js';
import type { StatePoint } from './organization-state-at.js';
import { DEFAULT_TIMELINE_PAGE_SIZE, MAX_TIMELINE_PAGE_SIZE, type TimelineRequest } from './organization-timeline.js';

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

/** Refused rather than clamped, so the auditor sees the mistake (README, Decisions). */
const pastInstant = instant.refine((at) => at.getTime() <= Date.now(), { message: 'must not be in the future' });

const pointFields = { asOfRevision: revision.optional(), asOf: pastInstant.optional() };

const onePoint: [(query: { asOfRevision?: bigint; asOf?: Date }) => boolean, { message: string; path: string[] }] = [
  (query) => query.asOfRevision === undefined || query.asOf === undefined,
  // Worded for the HTTP query string; the command line checks its own flags first (org:state).
  { message: 'give one point: the query parameter asOfRevision or asOf, not both', path: ['asOf'] },
];

function pointOf(query: { asOfRevision?: bigint | undefined; asOf?: Date | undefined }): StatePoint {
  if (query.asOfRevision !== undefined) return { kind: 'revision', revision: query.asOfRevision };
  if (query.asOf !== undefined) return { kind: 'instant', at: query.asOf };
  return { kind: 'latest' };
}

export const stateQuery = z
  .strictObject(pointFields)
  .refine(...onePoint)
  .transform(pointOf);

/** The most members a state at a point lists when asked for some (the rest are counted). */
export const MAX_MEMBERS_LISTED = 1_000;

/** history/changes: a point, and how many of the members then to list (all of them without `memberLimit`, until 1.0). */
export const changesQuery = z
  .strictObject({
    ...pointFields,
    memberLimit: z
      .string()
      .regex(/^\d{1,4}$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.int().min(0).max(MAX_MEMBERS_LISTED))
      .optional(),
  })
  .refine(...onePoint)
  .transform((query) => ({ point: pointOf(query), memberLimit: query.memberLimit }));

export const correlationIdParameter = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/, 'is not a correlation id');

/** The exports accept them too: a download holds what the page shows. */
const filterFields = {
  type: z.enum(ORGANIZATION_EVENT_TYPES as [OrganizationEventType, ...OrganizationEventType[]]).optional(),
  actor: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:~-]{0,199}$/, 'is not an actor')
    .optional(),
  from: instant.optional(),
  to: instant.optional(),
};

type FilterFields = {
  type?: string | undefined;
  actor?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

const rangeInOrder = (query: FilterFields): boolean =>
  query.from === undefined || query.to === undefined || query.from <= query.to;
const rangeMessage = { message: 'from must not be after to', path: ['from'] };

function historyFilter({ type, actor, from, to }: FilterFields): HistoryFilter {
  return {
    ...(type === undefined ? {} : { type }),
    ...(actor === undefined ? {} : { actor }),
    ...(from === undefined ? {} : { from: from.toISOString() }),
    ...(to === undefined ? {} : { to: to.toISOString() }),
  };
}

const pageLimit = z
  .string()
  .regex(/^\d{1,3}$/, 'must be a whole number')
  .transform(Number)
  .pipe(z.int().min(1).max(MAX_TIMELINE_PAGE_SIZE))
  .default(DEFAULT_TIMELINE_PAGE_SIZE);

export const timelineQuery = z
  .strictObject({
    order: z.enum(['newest', 'oldest']).default('newest'),
    after: revision.optional(),
    limit: pageLimit,
    ...filterFields,
    minPosition: readQuery.shape.minPosition,
  })
  .refine(rangeInOrder, rangeMessage)
  .transform(({ order, after, limit, minPosition, ...filter }) => ({
    request: {
      order,
      limit,
      ...(after === undefined ? {} : { after }),
      filter: historyFilter(filter),
    } satisfies TimelineRequest,
    read: minPosition === undefined ? {} : { minPosition },
  }));

export const historyReadQuery = readQuery;

export const exportQuery = z
  .strictObject({
    format: z.enum(EXPORT_FORMATS as [ExportFormat, ...ExportFormat[]]),
    // With each event's hash and what links it to the signed chain (docs/history.md): the whole history, as JSON lines.
    proof: z.enum(['true', 'false']).optional(),
    ...filterFields,
  })
  .refine(rangeInOrder, rangeMessage)
  .refine(({ proof, format }) => proof !== 'true' || format === 'jsonl', {
    message: 'a proof comes with format=jsonl only',
    path: ['proof'],
  })
  .refine(
    ({ proof, type, actor, from, to }) =>
      proof !== 'true' || [type, actor, from, to].every((value) => value === undefined),
    {
      message: 'a proof covers the whole history: leave out type, actor, from and to',
      path: ['proof'],
    },
  )
  .transform(({ format, proof, ...filter }) => ({ format, proof: proof === 'true', filter: historyFilter(filter) }));

export const memberSecurityQuery = z.strictObject({ before: revision.optional(), limit: pageLimit });
