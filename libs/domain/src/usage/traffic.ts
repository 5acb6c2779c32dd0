// Traffic per month: the collectors report usage, Chorus keeps each organization's total per period. A
// period's reports live in a stream of their own (`traffic-<organization>-<YYYY-MM>`), so that counting
// never contends with the organization's commands; a report id is counted once, however often it arrives.

export const trafficStreamPrefix = 'traffic-';
export const trafficStream = (organizationId: string, period: string): string => `${trafficStreamPrefix}${organizationId}-${period}`;

/** The calendar month, in UTC, of an instant: `YYYY-MM`. */
export const trafficPeriodOf = (instant: string | Date): string => new Date(instant).toISOString().slice(0, 7);

/** The thresholds of the allowance (in percent) whose crossing is recorded, once per period. */
export const TRAFFIC_THRESHOLDS = [80, 100] as const;
export type TrafficThreshold = (typeof TRAFFIC_THRESHOLDS)[number];

/** The thresholds `used` has reached of `allowance` (none when unlimited). */
export const thresholdsReached = (used: number, allowance: number | null): TrafficThreshold[] =>
  allowance === null || allowance <= 0 ? [] : TRAFFIC_THRESHOLDS.filter((threshold) => used * 100 >= allowance * threshold);

export type UsageReport = { id: string; quantity: number; occurredAt: string; siteId?: string | undefined };

/** Reports counted, in the order they arrived; `total` is the period's total after them. */
export type TrafficReported = { type: 'TrafficReported'; data: { organizationId: string; period: string; reports: UsageReport[]; total: number } };

/** The period's total reached a threshold of the allowance: recorded once per threshold and period, in the same append as the reports that reached it. */
export type TrafficThresholdCrossed = {
  type: 'TrafficThresholdCrossed';
  data: { organizationId: string; period: string; threshold: TrafficThreshold; used: number; allowance: number };
};

export type TrafficEvent = TrafficReported | TrafficThresholdCrossed;

export type TrafficState = { total: number; counted: ReadonlySet<string>; crossed: readonly TrafficThreshold[] };

export const initialTrafficState = (): TrafficState => ({ total: 0, counted: new Set(), crossed: [] });

export function evolveTraffic(state: TrafficState, event: TrafficEvent): TrafficState {
  if (event.type === 'TrafficThresholdCrossed') return { ...state, crossed: [...state.crossed, event.data.threshold] };
  const counted = new Set(state.counted);
  for (const report of event.data.reports) counted.add(report.id);
  return { ...state, total: event.data.total, counted };
}

/**
 * The reports not counted before (nor twice within this call), as one event, and each threshold of the
 * allowance (null: unlimited) the new total reaches for the first time this period; none when all were counted.
 */
export function decideTraffic(
  state: TrafficState,
  request: { organizationId: string; period: string; reports: readonly UsageReport[]; allowance: number | null },
): TrafficEvent[] {
  const { organizationId, period, reports, allowance } = request;
  const seen = new Set(state.counted);
  const fresh: UsageReport[] = [];
  for (const report of reports) {
    if (seen.has(report.id)) continue;
    seen.add(report.id);
    fresh.push(report);
  }
  if (fresh.length === 0) return [];
  const total = fresh.reduce((sum, report) => sum + report.quantity, state.total);
  const crossed = thresholdsReached(total, allowance).filter((threshold) => !state.crossed.includes(threshold));
  return [
    { type: 'TrafficReported', data: { organizationId, period, reports: fresh, total } },
    ...crossed.map((threshold): TrafficThresholdCrossed => ({ type: 'TrafficThresholdCrossed', data: { organizationId, period, threshold, used: total, allowance: allowance ?? 0 } })),
  ];
}

