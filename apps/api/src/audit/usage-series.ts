// Usage against the effective limit over time (docs/console.md, History): a point per event (the usage after it, and
// the limit inputs after each event that may move the limits), with the domain's own limits and this catalogue.
import {
  evolve,
  governingPlan,
  initialOrganizationState,
  organizationLimits,
  organizationStream,
  type LimitInputs,
  type OrganizationState,
  type PlanCatalogue,
} from '#domain';
import type { EventStore } from '#event-store';
import { USAGE_ROWS_FROM_REVISION, usagePointAfter, type OrganizationQueries, type UsagePointRow } from '#read-models';
import { asOrganizationEvent } from '../organizations/organizations.service.js';
import { organizationNotFound } from './organization-history.js';

/** limit null: unlimited; peak: the most in use since the previous point. */
export type ResourceUse = { usage: number; limit: number | null; peak: number };

/** plan: without one nothing can be added, whatever the limits say. */
export type UsagePoint = {
  at: string;
  revision: number | string;
  plan: boolean;
  users: ResourceUse;
  contentSections: ResourceUse;
};

export type UsageSeriesAnswer = {
  organizationId: string;
  points: UsagePoint[];
  /** Each merged point keeps its peak. */
  merged: boolean;
};

/** More points than a chart's few hundred pixels would be drawn on top of each other. */
export const MAX_USAGE_POINTS = 400;

/**
 * A change in the same time slot as the last point replaces it and the peaks carry over, so a burst keeps its highest
 * usage. It takes a point's figures as numbers and changes its last point in place: a history of 100,000 members
 * gives 100,000 changes, of which a few hundred are kept.
 */
export class UsageSeries {
  private readonly points: UsagePoint[] = [];
  private readonly slotMs: number;
  private lastSlot = Number.NaN;
  private mergedAny = false;

  constructor(
    private readonly start: number,
    end: number,
    maxPoints = MAX_USAGE_POINTS,
    private readonly mergeable = true,
  ) {
    this.slotMs = Math.max(1, (end - start) / maxPoints);
  }

  record(
    point: Omit<UsagePoint, 'users' | 'contentSections'> & {
      users: Omit<ResourceUse, 'peak'>;
      contentSections: Omit<ResourceUse, 'peak'>;
    },
  ): void {
    this.recordFigures(
      point.at,
      point.revision,
      point.plan,
      point.users.usage,
      point.users.limit,
      point.contentSections.usage,
      point.contentSections.limit,
    );
  }

  recordFigures(
    at: string,
    revision: number | string,
    plan: boolean,
    users: number,
    usersLimit: number | null,
    sections: number,
    sectionsLimit: number | null,
  ): void {
    const last = this.points.at(-1);
    if (
      last !== undefined &&
      last.plan === plan &&
      last.users.usage === users &&
      last.users.limit === usersLimit &&
      last.contentSections.usage === sections &&
      last.contentSections.limit === sectionsLimit
    )
      return;
    const slot = Math.floor((Date.parse(at) - this.start) / this.slotMs);
    if (this.mergeable && last !== undefined && this.points.length > 1 && slot === this.lastSlot) {
      last.at = at;
      last.revision = revision;
      last.plan = plan;
      last.users.usage = users;
      last.users.limit = usersLimit;
      last.users.peak = Math.max(users, last.users.peak);
      last.contentSections.usage = sections;
      last.contentSections.limit = sectionsLimit;
      last.contentSections.peak = Math.max(sections, last.contentSections.peak);
      this.mergedAny = true;
      return;
    }
    this.lastSlot = slot;
    this.points.push({
      at,
      revision,
      plan,
      users: { usage: users, limit: usersLimit, peak: users },
      contentSections: { usage: sections, limit: sectionsLimit, peak: sections },
    });
  }

  get merged(): boolean {
    return this.mergedAny;
  }

  all(): UsagePoint[] {
    return this.points.map((point) => ({
      ...point,
      users: { ...point.users },
      contentSections: { ...point.contentSections },
    }));
  }
}

type Limits = { plan: boolean; users: number | null; contentSections: number | null };

function limitsOf(state: LimitInputs, catalogue: PlanCatalogue): Limits {
  const { effective } = organizationLimits(state, catalogue);
  return {
    plan: governingPlan(state, catalogue) !== undefined,
    users: effective.users,
    contentSections: effective.contentSections,
  };
}

/** The usage points of an organization: its first page of events folded from its stream, then the model's rows. */
async function usagePoints(
  store: EventStore,
  organizations: OrganizationQueries,
  organizationId: string,
): Promise<UsagePointRow[]> {
  const read = await store.readStream(organizationStream(organizationId), {
    fromRevision: 0n,
    maxCount: USAGE_ROWS_FROM_REVISION,
  });
  if (!read.found) return [];
  const points: UsagePointRow[] = [];
  let state: OrganizationState = initialOrganizationState;
  for (const event of read.events) {
    state = evolve(state, asOrganizationEvent(event));
    if (state.exists) points.push(usagePointAfter(event, state));
  }
  if (read.events.length < USAGE_ROWS_FROM_REVISION) return points;
  // Pushed one by one: spreading 100,000 rows into one call would overflow the stack.
  for (const row of organizations.usageOf(organizationId)) points.push(row);
  return points;
}

/**
 * A point after the organization's first event and after each event that may move its limits or its usage. An
 * organization of 100,000 members is a page of its stream and 99,000 rows read as arrays, some tens of milliseconds,
 * where folding its whole stream at each read took most of a second (bench/commands, reads.mjs).
 */
export async function organizationUsageSeries(
  store: EventStore,
  organizations: OrganizationQueries,
  catalogue: PlanCatalogue,
  organizationId: string,
): Promise<UsageSeriesAnswer> {
  const rows = await usagePoints(store, organizations, organizationId);
  const first = rows[0];
  const last = rows.at(-1);
  if (first === undefined || last === undefined) throw organizationNotFound();
  const series = new UsageSeries(
    Date.parse(first[1]),
    Date.parse(last[1]),
    MAX_USAGE_POINTS,
    last[0] >= MAX_USAGE_POINTS,
  );
  let limits: Limits | undefined;
  for (const [revision, at, movesUsage, users, contentSections, limitsState] of rows) {
    if (limitsState !== null) limits = limitsOf(limitsState, catalogue);
    else if (limits !== undefined && movesUsage === 0) continue;
    if (limits === undefined)
      throw new Error(`${organizationId}: no state to compute limits from at revision ${revision}`);
    series.recordFigures(at, revision, limits.plan, users, limits.users, contentSections, limits.contentSections);
  }
  return { organizationId, points: series.all(), merged: series.merged };
}
