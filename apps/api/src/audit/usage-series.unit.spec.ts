import { describe, expect, it } from '@jest/globals';
import { UsageSeries } from './usage-series.js';

const at = (minute: number): string => new Date(Date.UTC(2031, 0, 1, 0, minute)).toISOString();
const point = (minute: number, users: number, limit: number | null = 5, sections = 0) => ({
  at: at(minute),
  revision: minute,
  plan: true,
  users: { usage: users, limit },
  contentSections: { usage: sections, limit: 2 },
});

describe('UsageSeries', () => {
  it('keeps a point where a figure changes, and none where nothing did', () => {
    const series = new UsageSeries(Date.parse(at(0)), Date.parse(at(1000)));
    series.record(point(0, 0));
    series.record(point(100, 1));
    series.record(point(200, 1));
    series.record(point(300, 1, 10));

    expect(series.all().map((kept) => [kept.revision, kept.users.usage, kept.users.limit])).toEqual([
      [0, 0, 5],
      [100, 1, 5],
      [300, 1, 10],
    ]);
    expect(series.merged).toBe(false);
  });

  it('merges nothing when the history is short enough to draw whole, however close its changes', () => {
    const series = new UsageSeries(Date.parse(at(0)), Date.parse(at(100)), 10, false);
    series.record(point(0, 0));
    series.record(point(20, 1));
    series.record(point(21, 4));
    series.record(point(22, 2));

    expect(series.all().map((kept) => [kept.revision, kept.users.usage])).toEqual([
      [0, 0],
      [20, 1],
      [21, 4],
      [22, 2],
    ]);
    expect(series.merged).toBe(false);
  });

  it('merges changes within one time slot into the last of them, keeping the peak', () => {
    // 10 slots over 100 minutes: a slot is 10 minutes.
    const series = new UsageSeries(Date.parse(at(0)), Date.parse(at(100)), 10);
    series.record(point(0, 0));
    series.record(point(20, 1));
    series.record(point(21, 4));
    series.record(point(22, 2));
    series.record(point(50, 3));

    expect(series.all().map((kept) => [kept.revision, kept.users.usage, kept.users.peak])).toEqual([
      [0, 0, 0],
      [22, 2, 4],
      [50, 3, 3],
    ]);
    expect(series.merged).toBe(true);
  });

  it("never has more points than slots, however many changes (plus the first point and the last instant's slot)", () => {
    const series = new UsageSeries(Date.parse(at(0)), Date.parse(at(10_000)), 50);
    for (let minute = 0; minute <= 10_000; minute += 1) series.record(point(minute, minute % 7));

    expect(series.all().length).toBeLessThanOrEqual(52);
    // Every merged slot saw 0 to 6 in use: each kept its peak.
    expect(
      series
        .all()
        .slice(1, -1)
        .every((kept) => kept.users.peak === 6),
    ).toBe(true);
  });

  it('an unlimited limit stays null', () => {
    const series = new UsageSeries(Date.parse(at(0)), Date.parse(at(10)));
    series.record(point(0, 0, null));

    expect(series.all()[0]?.users).toEqual({ usage: 0, limit: null, peak: 0 });
  });

  it('keeps the point where the plan ends, though the figures stay: nothing can be added from then on', () => {
    const series = new UsageSeries(Date.parse(at(0)), Date.parse(at(10)));
    series.record(point(0, 2, null));
    series.record({ ...point(5, 2, null), plan: false });

    expect(series.all().map((kept) => [kept.revision, kept.plan])).toEqual([
      [0, true],
      [5, false],
    ]);
  });
});
