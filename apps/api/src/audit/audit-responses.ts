// Answer shapes of the audit routes (docs/api.md, Organizations), in the style of audit-requests.ts: the single source
// of their schemas in /docs/openapi.json (through `@Operation({ answer })`). Recorded data stays open: it is what the
// store holds.
import { z } from 'zod';
import { jsonSafeInteger } from '../http/operation.decorator.js';

/** One recorded event as auditors see it (HistoryEvent). */
const historyEvent = z.object({
  id: z.string(),
  streamId: z.string(),
  type: z.string(),
  data: z.unknown(),
  metadata: z.looseObject({}).describe('actor, correlationId, causationId and whatever else the command recorded'),
  revision: jsonSafeInteger,
  position: jsonSafeInteger,
  recordedAt: z.string(),
});

export const historyAnswer = z.object({
  organizationId: z.string(),
  events: z.array(historyEvent),
  nextFromRevision: jsonSafeInteger,
  hasMore: z.boolean(),
});

/**
 * The organization read model's view as it was, with its place and time (StateAnswer): the view's details stay open.
 */
export const stateAnswer = z.looseObject({
  id: z.string(),
  name: z.string(),
  revision: jsonSafeInteger,
  position: jsonSafeInteger,
  recordedAt: z.string(),
});

export const correlationAnswer = z.object({
  correlationId: z.string(),
  events: z.array(historyEvent),
  hasMore: z.boolean(),
});

/** An event in words (TimelineEntry). */
const timelineEntry = z.looseObject({
  recordedAt: z.string(),
  revision: jsonSafeInteger,
  position: jsonSafeInteger,
  type: z.string(),
  description: z.string(),
  actor: z.string().describe('As recorded: `user:<id>`, `api-key:<id>`, `billing`, `cli`'),
  actorName: z.string(),
  correlationId: z.string().nullable(),
});

export const timelinePageAnswer = z.object({
  organizationId: z.string(),
  order: z.enum(['newest', 'oldest']),
  entries: z.array(timelineEntry),
  next: jsonSafeInteger.nullable(),
});

export const historyFiltersAnswer = z.object({
  types: z.array(z.object({ type: z.string(), name: z.string() })),
  actors: z.array(z.object({ actor: z.string(), name: z.string() })),
});

export const memberSecurityPageAnswer = z.object({
  organizationId: z.string(),
  entries: z.array(
    z.looseObject({
      recordedAt: z.string(),
      position: jsonSafeInteger,
      type: z.string(),
      description: z.string(),
      member: z.object({ userId: z.string(), email: z.string() }),
      actor: z.string(),
      actorName: z.string(),
    }),
  ),
  next: jsonSafeInteger.nullable(),
});

export const changesAnswer = z.object({
  entry: timelineEntry,
  state: stateAnswer.extend({ memberCount: z.int().min(0) }),
  changes: z.array(
    z.object({
      area: z.string(),
      kind: z.string(),
      subject: z.string(),
      before: z.string().optional(),
      after: z.string().optional(),
      text: z.string(),
    }),
  ),
});

const resourceUse = z.object({ usage: z.int(), limit: z.int().nullable(), peak: z.int() });

export const usageSeriesAnswer = z.object({
  organizationId: z.string(),
  points: z.array(
    z.object({
      at: z.string(),
      revision: jsonSafeInteger,
      plan: z.boolean(),
      users: resourceUse,
      contentSections: resourceUse,
    }),
  ),
  merged: z.boolean().describe('Each merged point keeps its peak'),
});

export const organizationCorrelationAnswer = z.object({
  organizationId: z.string(),
  correlationId: z.string(),
  entries: z.array(timelineEntry.extend({ streamId: z.string() })),
  hasMore: z.boolean(),
});
