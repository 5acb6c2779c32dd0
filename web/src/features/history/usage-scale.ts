// What History's usage chart shows of the series (docs/console.md, History): the chosen range, a value axis
// scaled to what that range shows, and the limits that held only for an instant (set and replaced in one go,
// as when an organization is set up), which are marked rather than scaled to.
import type { UsagePoint } from './api/history-contract';

export type UsageResource = 'users' | 'contentSections';

export type UsageRange = 'all' | 'year' | 'month' | 'week' | 'day';

const DAY_MS = 86_400_000;

export const USAGE_RANGES: readonly { value: UsageRange; label: string; ms: number | null }[] = [
  { value: 'all', label: 'The whole history', ms: null },
  { value: 'year', label: 'The last 12 months', ms: 365 * DAY_MS },
  { value: 'month', label: 'The last 30 days', ms: 30 * DAY_MS },
  { value: 'week', label: 'The last 7 days', ms: 7 * DAY_MS },
  { value: 'day', label: 'The last 24 hours', ms: DAY_MS },
];

/** A limit replaced within a minute was never one to plan by: a step of a set-up, or a correction. */
export const MOMENTARY_MS = 60_000;

/**
 * A limit this many times what is in use (and above REACH_FLOOR) would flatten the usage line: it is named, not scaled
 * to.
 */
const REACH_FACTOR = 4;
const REACH_FLOOR = 10;

/**
 * The points in the range, from `start` to `end` (ms): the one in force at the start (moved to it), then those inside.
 */
export function pointsInRange(
  points: readonly UsagePoint[],
  range: UsageRange,
  end: number,
): { points: UsagePoint[]; start: number } {
  const first = points[0];
  if (first === undefined) return { points: [], start: end };
  const length = USAGE_RANGES.find((candidate) => candidate.value === range)?.ms ?? null;
  const from = Date.parse(first.at);
  if (length === null || end - length <= from) return { points: [...points], start: from };
  const start = end - length;
  const before = points.filter((point) => Date.parse(point.at) <= start).at(-1);
  const inside = points.filter((point) => Date.parse(point.at) > start);
  return {
    points: before === undefined ? inside : [{ ...before, at: new Date(start).toISOString() }, ...inside],
    start,
  };
}

/**
 * For each point, whether its limit held only for an instant: a limit that began there (none or another
 * before) and that the next point, less than MOMENTARY_MS later, changed. The last point's limit holds until now.
 */
export function momentaryLimits(points: readonly UsagePoint[], resource: UsageResource): boolean[] {
  return points.map((point, index) => {
    const limit = point[resource].limit;
    const next = points[index + 1];
    if (limit === null || next === undefined || next[resource].limit === limit) return false;
    if (points[index - 1]?.[resource].limit === limit) return false;
    return Date.parse(next.at) - Date.parse(point.at) < MOMENTARY_MS;
  });
}

export type ValueScale = {
  /** The axis's top value. */
  top: number;
  /**
   * The highest limit held in the range that is far above what is in use: named above the axis, drawn along its top.
   */
  aboveScale: number | null;
};

/**
 * The value axis for what the range shows: the most in use, and each limit that held for more than an instant
 * within reach of it; with no such limit, a little room above the usage, so that its line is not the chart's
 * top edge. Momentary limits are marked where they were; a limit far above the usage is named.
 */
export function valueScale(
  points: readonly UsagePoint[],
  resource: UsageResource,
  momentary: readonly boolean[],
): ValueScale {
  const peak = Math.max(0, ...points.map((point) => point[resource].peak));
  const reach = Math.max(REACH_FLOOR, REACH_FACTOR * peak);
  const held = points.flatMap((point, index) => {
    const limit = point[resource].limit;
    return limit === null || momentary[index] === true ? [] : [limit];
  });
  const within = held.filter((limit) => limit <= reach);
  const beyond = held.filter((limit) => limit > reach);
  const top = within.length === 0 ? peak + Math.max(1, Math.ceil(peak / 4)) : Math.max(1, peak, ...within);
  return { top, aboveScale: beyond.length === 0 ? null : Math.max(...beyond) };
}
