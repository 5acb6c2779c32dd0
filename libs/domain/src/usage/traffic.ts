// A period's reports live in a stream of their own, so that counting never contends with the organization's commands.
import type { Decider } from '../decider.js';

export const trafficStreamPrefix = 'traffic-';
export const trafficStream = (organizationId: string, period: string): string =>
  `${trafficStreamPrefix}${organizationId}-${period}`;

/** `month` 0-11; the anchor's day is clamped to the last in shorter months. */
function monthStart(year: number, month: number, anchor: Date | undefined): number {
  if (anchor === undefined) return Date.UTC(year, month, 1);
  const day = Math.min(anchor.getUTCDate(), new Date(Date.UTC(year, month + 1, 0)).getUTCDate());
  return Date.UTC(
    year,
    month,
    day,
    anchor.getUTCHours(),
    anchor.getUTCMinutes(),
    anchor.getUTCSeconds(),
    anchor.getUTCMilliseconds(),
  );
}

/**
 * With an `anchor` (billing period start), the month its billing month began in: billed from the 15th, 10 December
 * counts in November.
 */
export function trafficPeriodOf(instant: string | Date, anchor?: string | null): string {
  const at = new Date(instant);
  const from = anchor === null || anchor === undefined ? undefined : new Date(anchor);
  let [year, month] = [at.getUTCFullYear(), at.getUTCMonth()];
  if (at.getTime() < monthStart(year, month, from)) [year, month] = month === 0 ? [year - 1, 11] : [year, month - 1];
  return `${year}-${String(month + 1).padStart(2, '0')}`;
}

export function periodBefore(period: string): string {
  const [year = 1970, month = 1] = period.split('-').map(Number);
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

export function trafficPeriodStart(period: string, anchor?: string | null): string {
  const [year, month] = period.split('-').map(Number);
  return new Date(
    monthStart(year ?? 1970, (month ?? 1) - 1, anchor === null || anchor === undefined ? undefined : new Date(anchor)),
  ).toISOString();
}

/** Percent of the allowance; each crossing is recorded once per period. */
export const TRAFFIC_THRESHOLDS = [80, 100] as const;
export type TrafficThreshold = (typeof TRAFFIC_THRESHOLDS)[number];

export const thresholdsReached = (used: number, allowance: number | null): TrafficThreshold[] =>
  allowance === null || allowance <= 0
    ? []
    : TRAFFIC_THRESHOLDS.filter((threshold) => used * 100 >= allowance * threshold);

export type UsageReport = { id: string; quantity: number; occurredAt: string; siteId?: string | undefined };

export type TrafficReported = {
  type: 'TrafficReported';
  data: { organizationId: string; period: string; reports: UsageReport[]; total: number };
};

/** In the same append as the reports that reached it. */
export type TrafficThresholdCrossed = {
  type: 'TrafficThresholdCrossed';
  data: { organizationId: string; period: string; threshold: TrafficThreshold; used: number; allowance: number };
};

export type TrafficEvent = TrafficReported | TrafficThresholdCrossed;

/** The same id with other content is refused (REPORT_ID_REUSED) rather than counted or taken for a repeat. */
export const reportContent = ({ quantity, occurredAt, siteId }: UsageReport): string =>
  `${quantity} ${Date.parse(occurredAt)} ${siteId ?? ''}`;

/**
 * Successive states share one growing map, each seeing the ids ranked below its `size`: a batch costs the batch, not
 * the month.
 */
export type CountedIds = { readonly order: Map<string, { rank: number; content: string }>; readonly size: number };

export function countedContent(counted: CountedIds, id: string): string | undefined {
  const entry = counted.order.get(id);
  return entry !== undefined && entry.rank < counted.size ? entry.content : undefined;
}

export const hasCounted = (counted: CountedIds, id: string): boolean => countedContent(counted, id) !== undefined;

function countedWith(counted: CountedIds, reports: readonly UsageReport[]): CountedIds {
  // A state branching from an older one copies its own part.
  let order = counted.order;
  if (order.size !== counted.size) {
    order = new Map();
    for (const [id, entry] of counted.order) {
      if (entry.rank >= counted.size) break;
      order.set(id, entry);
    }
  }
  let size = counted.size;
  for (const report of reports) {
    if (order.has(report.id)) continue;
    order.set(report.id, { rank: size, content: reportContent(report) });
    size += 1;
  }
  return { order, size };
}

export type TrafficState = { total: number; counted: CountedIds; crossed: readonly TrafficThreshold[] };

export const initialTrafficState = (): TrafficState => ({
  total: 0,
  counted: { order: new Map(), size: 0 },
  crossed: [],
});

export function evolveTraffic(state: TrafficState, event: TrafficEvent): TrafficState {
  if (event.type === 'TrafficThresholdCrossed') return { ...state, crossed: [...state.crossed, event.data.threshold] };
  return { ...state, total: event.data.total, counted: countedWith(state.counted, event.data.reports) };
}

/** Report ids are the organization's, whatever the month: a report may fall in the neighbouring period. */
export type CountedElsewhere = (id: string) => string | undefined;

/** A reused id is not counted; the caller tells a repeat from a reuse by `reportContent`. */
export function decideTraffic(
  state: TrafficState,
  request: {
    organizationId: string;
    period: string;
    reports: readonly UsageReport[];
    allowance: number | null;
    countedElsewhere?: CountedElsewhere;
  },
): TrafficEvent[] {
  const { organizationId, period, reports, allowance, countedElsewhere = () => undefined } = request;
  const seen = new Set<string>();
  const fresh: UsageReport[] = [];
  for (const report of reports) {
    if (seen.has(report.id) || hasCounted(state.counted, report.id) || countedElsewhere(report.id) !== undefined)
      continue;
    seen.add(report.id);
    fresh.push(report);
  }
  if (fresh.length === 0) return [];
  const total = fresh.reduce((sum, report) => sum + report.quantity, state.total);
  const crossed = thresholdsReached(total, allowance).filter((threshold) => !state.crossed.includes(threshold));
  return [
    { type: 'TrafficReported', data: { organizationId, period, reports: fresh, total } },
    ...crossed.map((threshold): TrafficThresholdCrossed => ({
      type: 'TrafficThresholdCrossed',
      data: { organizationId, period, threshold, used: total, allowance: allowance ?? 0 },
    })),
  ];
}

export type ReportUsage = {
  type: 'ReportUsage';
  data: {
    organizationId: string;
    period: string;
    reports: readonly UsageReport[];
    allowance: number | null;
    countedElsewhere?: CountedElsewhere;
  };
};

/** Its id is `<organization> <YYYY-MM>`. */
export const trafficDecider: Decider<TrafficState, ReportUsage, TrafficEvent> = {
  streamOf: (id) => {
    const [organizationId = '', period = ''] = id.split(' ');
    return trafficStream(organizationId, period);
  },
  get initialState() {
    // A getter: each stream's counted ids grow a map of their own.
    return initialTrafficState();
  },
  evolve: evolveTraffic,
  decide: (command, state) => decideTraffic(state, command.data),
};

export const trafficId = (organizationId: string, period: string): string => `${organizationId} ${period}`;
