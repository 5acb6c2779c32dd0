// Usage against the effective limit over time (docs/console.md, History), folded with the domain's own evolve and
// limits.
import {
  evolve,
  foldOrganization,
  governingPlan,
  memberCountsAfterEach,
  runOfType,
  initialOrganizationState,
  organizationLimits,
  organizationStream,
  usage,
  type ExistingOrganization,
  type MemberAdded,
  type OrganizationState,
  type PlanCatalogue,
} from '#domain';
import type { EventStore, RecordedEvent } from '#event-store';
import { jsonSafe } from '../http/json-safe.js';
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

const READ_PAGE_SIZE = 1_000;

const LIMIT_EVENTS: ReadonlySet<string> = new Set([
  'OrganizationCreated',
  'PlanAssigned',
  'PlanEnded',
  'AddOnPurchased',
  'AddOnCancelled',
  'ChorusEnabled',
  'ChorusDisabled',
  'LimitsConfigured',
]);
const USAGE_EVENTS: ReadonlySet<string> = new Set(['MemberAdded', 'MemberRemoved', 'SiteAdded', 'SiteRemoved']);

const sameFigures = (a: UsagePoint, b: UsagePoint): boolean =>
  a.plan === b.plan &&
  a.users.usage === b.users.usage &&
  a.users.limit === b.users.limit &&
  a.contentSections.usage === b.contentSections.usage &&
  a.contentSections.limit === b.contentSections.limit;

/**
 * A change in the same time slot as the last point replaces it and the peaks carry over, so a burst keeps its highest
 * usage.
 */
export class UsageSeries {
  private readonly points: UsagePoint[] = [];
  private readonly slotMs: number;
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
    const next: UsagePoint = {
      ...point,
      users: { ...point.users, peak: point.users.usage },
      contentSections: { ...point.contentSections, peak: point.contentSections.usage },
    };
    const last = this.points.at(-1);
    if (last !== undefined && sameFigures(last, next)) return;
    if (this.mergeable && last !== undefined && this.points.length > 1 && this.slotOf(last) === this.slotOf(next)) {
      next.users.peak = Math.max(next.users.peak, last.users.peak);
      next.contentSections.peak = Math.max(next.contentSections.peak, last.contentSections.peak);
      this.points[this.points.length - 1] = next;
      this.mergedAny = true;
      return;
    }
    this.points.push(next);
  }

  get merged(): boolean {
    return this.mergedAny;
  }

  all(): UsagePoint[] {
    return [...this.points];
  }

  private slotOf(point: UsagePoint): number {
    return Math.floor((Date.parse(point.at) - this.start) / this.slotMs);
  }
}

type Limits = { plan: boolean; users: number | null; contentSections: number | null };

function figuresOf(
  state: ExistingOrganization,
  catalogue: PlanCatalogue,
  limitsBefore: Limits | undefined,
  event: RecordedEvent,
) {
  const limits =
    limitsBefore === undefined || LIMIT_EVENTS.has(event.type)
      ? { ...organizationLimits(state, catalogue).effective, plan: governingPlan(state, catalogue) !== undefined }
      : limitsBefore;
  const inUse = usage(state);
  return {
    limits: { plan: limits.plan, users: limits.users, contentSections: limits.contentSections },
    users: { usage: inUse.users, limit: limits.users },
    contentSections: { usage: inUse.contentSections, limit: limits.contentSections },
  };
}

const pointOf = (event: RecordedEvent, figures: ReturnType<typeof figuresOf>) => ({
  at: event.recordedAt,
  revision: jsonSafe(event.revision),
  plan: figures.limits.plan,
  users: figures.users,
  contentSections: figures.contentSections,
});

export async function organizationUsageSeries(
  store: EventStore,
  catalogue: PlanCatalogue,
  organizationId: string,
): Promise<UsageSeriesAnswer> {
  const stream = organizationStream(organizationId);
  const newest = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
  const lastEvent = newest.found ? newest.events[0] : undefined;
  if (lastEvent === undefined) throw organizationNotFound();
  let series: UsageSeries | undefined;
  let state: OrganizationState = initialOrganizationState;
  let limits: Limits | undefined;
  for (let fromRevision = 0n; fromRevision <= lastEvent.revision;) {
    const read = await store.readStream(stream, { fromRevision, maxCount: READ_PAGE_SIZE });
    if (!read.found) throw organizationNotFound();
    for (let index = 0; index < read.events.length;) {
      const additions = state.exists && series !== undefined ? runOfType(read.events, index, 'MemberAdded') : [];
      if (state.exists && series !== undefined && additions.length > 1) {
        // One batch into the member map for the run, and a point for each addition from its count. Adding members
        // changes no limit, so the figures differ only in users in use.
        const added = additions.map((event) => asOrganizationEvent(event) as MemberAdded);
        const figures = figuresOf(state, catalogue, limits, additions[0] as RecordedEvent);
        for (const [at, users] of memberCountsAfterEach(state, added).entries()) {
          series.record(
            pointOf(additions[at] as RecordedEvent, { ...figures, users: { ...figures.users, usage: users } }),
          );
        }
        state = foldOrganization(added, state);
        index += additions.length;
        continue;
      }
      const event = read.events[index] as RecordedEvent;
      index += 1;
      state = evolve(state, asOrganizationEvent(event));
      if (!state.exists || (limits !== undefined && !LIMIT_EVENTS.has(event.type) && !USAGE_EVENTS.has(event.type)))
        continue;
      const truncated = lastEvent.revision >= BigInt(MAX_USAGE_POINTS);
      series ??= new UsageSeries(
        Date.parse(event.recordedAt),
        Date.parse(lastEvent.recordedAt),
        MAX_USAGE_POINTS,
        truncated,
      );
      const figures = figuresOf(state, catalogue, limits, event);
      limits = figures.limits;
      series.record(pointOf(event, figures));
    }
    const end = read.events.at(-1);
    if (end === undefined) break;
    fromRevision = end.revision + 1n;
  }
  return { organizationId, points: series?.all() ?? [], merged: series?.merged ?? false };
}
