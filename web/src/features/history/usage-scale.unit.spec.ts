import { describe, expect, it } from '@jest/globals';
import type { UsagePoint } from './api/history-contract';
import { momentaryLimits, pointsInRange, valueScale } from './usage-scale';

const at = (seconds: number): string => new Date(Date.UTC(2030, 2, 12, 9, 0, seconds)).toISOString();
const point = (seconds: number, sites: number, limit: number | null, revision = seconds): UsagePoint => ({
  at: at(seconds),
  revision,
  plan: limit !== null,
  users: { usage: 1, limit: 10, peak: 1 },
  contentSections: { usage: sites, limit, peak: sites },
});

describe("History's usage chart", () => {
  // An organization set up as the demo once was: its plan's 1,000 for a moment, then 5 set for it, then two sites.
  const setUp = [point(0, 0, null), point(1, 0, 1000), point(1.2, 0, 5), point(3, 1, 5), point(400, 2, 5)];

  it('marks a limit replaced within a minute as momentary, and no other', () => {
    expect(momentaryLimits(setUp, 'contentSections')).toEqual([false, true, false, false, false]);
    // Held for ten minutes, then changed: a limit to read against.
    expect(momentaryLimits([point(0, 0, 1000), point(600, 0, 5)], 'contentSections')).toEqual([false, false]);
    // The last point's limit holds until now, however soon after the one before it came.
    expect(momentaryLimits([point(0, 0, 5), point(1, 0, 1000)], 'contentSections')).toEqual([true, false]);
  });

  it('scales to what the range shows, not to a momentary limit: the usage line is not flat at 0', () => {
    expect(valueScale(setUp, 'contentSections', momentaryLimits(setUp, 'contentSections'))).toEqual({
      top: 5,
      aboveScale: null,
    });
  });

  it('names a limit that held but is far above the usage instead of flattening the usage under it', () => {
    const plan = [point(0, 0, null), point(1, 0, 1000), point(60, 2, 1000)];
    expect(valueScale(plan, 'contentSections', momentaryLimits(plan, 'contentSections'))).toEqual({
      top: 3,
      aboveScale: 1000,
    });
    // Within reach of the usage, the limit is on the scale.
    const near = [point(0, 3, 8), point(60, 6, 8)];
    expect(valueScale(near, 'contentSections', momentaryLimits(near, 'contentSections'))).toEqual({
      top: 8,
      aboveScale: null,
    });
  });

  it('shows the chosen range: the point in force at its start, moved to the start, then those inside it', () => {
    const end = Date.parse(at(400)) + 86_400_000 * 10;
    const { points, start } = pointsInRange(setUp, 'week', end);
    expect(start).toBe(end - 7 * 86_400_000);
    expect(points).toEqual([{ ...point(400, 2, 5), at: new Date(start).toISOString() }]);
    expect(pointsInRange(setUp, 'all', end).points).toEqual(setUp);
    // A range longer than the history is the whole history.
    expect(pointsInRange(setUp, 'year', end).points).toEqual(setUp);
  });
});
