import { describe, expect, it } from '@jest/globals';
import {
  countedContent,
  decideTraffic,
  evolveTraffic,
  initialTrafficState,
  periodBefore,
  reportContent,
  thresholdsReached,
  trafficPeriodOf,
  trafficPeriodStart,
  trafficStream,
  type TrafficEvent,
  type UsageReport,
} from './traffic.js';

const report = (id: string, quantity: number): UsageReport => ({
  id,
  quantity,
  occurredAt: '2026-11-03T10:00:00.000Z',
});
const request = (reports: UsageReport[], allowance: number | null = 1_000) => ({
  organizationId: 'acme',
  period: '2026-11',
  reports,
  allowance,
});
const fold = (events: TrafficEvent[]) => events.reduce(evolveTraffic, initialTrafficState());

describe('traffic', () => {
  it('names a stream per organization and UTC month', () => {
    expect(trafficPeriodOf('2026-11-30T23:59:59.999Z')).toBe('2026-11');
    expect(trafficPeriodOf('2026-12-01T00:00:00.000+01:00')).toBe('2026-11');
    expect(trafficStream('acme', '2026-11')).toBe('traffic-acme-2026-11');
  });

  it('counts a billing month from its anchor day, the last day in shorter months', () => {
    const anchor = '2026-01-15T09:30:00.000Z';
    expect(trafficPeriodOf('2026-12-10T00:00:00.000Z', anchor)).toBe('2026-11');
    expect(trafficPeriodOf('2026-12-15T09:29:59.999Z', anchor)).toBe('2026-11');
    expect(trafficPeriodOf('2026-12-15T09:30:00.000Z', anchor)).toBe('2026-12');
    expect(trafficPeriodOf('2027-01-03T00:00:00.000Z', anchor)).toBe('2026-12');
    expect(trafficPeriodOf('2027-02-28T12:00:00.000Z', '2026-01-31T12:00:00.000Z')).toBe('2027-02');
    expect(trafficPeriodOf('2027-02-28T11:00:00.000Z', '2026-01-31T12:00:00.000Z')).toBe('2027-01');
    expect(trafficPeriodOf('2026-11-30T23:59:59.999Z', null)).toBe('2026-11');
    expect(trafficPeriodStart('2026-11', anchor)).toBe('2026-11-15T09:30:00.000Z');
    expect(trafficPeriodStart('2027-02', '2026-01-31T12:00:00.000Z')).toBe('2027-02-28T12:00:00.000Z');
    expect(trafficPeriodStart('2026-11')).toBe('2026-11-01T00:00:00.000Z');
  });

  it('counts new reports once, also when one call repeats an id', () => {
    const events = decideTraffic(initialTrafficState(), request([report('a', 10), report('b', 20), report('a', 10)]));
    expect(events).toEqual([
      {
        type: 'TrafficReported',
        data: { organizationId: 'acme', period: '2026-11', reports: [report('a', 10), report('b', 20)], total: 30 },
      },
    ]);
  });

  it('decides nothing when every report was counted before', () => {
    const state = fold(decideTraffic(initialTrafficState(), request([report('a', 10)])));
    expect(decideTraffic(state, request([report('a', 10)]))).toEqual([]);
    expect(decideTraffic(state, request([report('a', 10), report('c', 5)]))[0]).toMatchObject({
      data: { reports: [report('c', 5)], total: 15 },
    });
  });

  it('records each threshold the first time the total reaches it, both at once when one report jumps past them', () => {
    const jump = decideTraffic(initialTrafficState(), request([report('a', 1_200)]));
    expect(jump.map((event) => event.type === 'TrafficThresholdCrossed' && event.data.threshold)).toEqual([
      false,
      80,
      100,
    ]);
    expect(jump[2]).toEqual({
      type: 'TrafficThresholdCrossed',
      data: { organizationId: 'acme', period: '2026-11', threshold: 100, used: 1_200, allowance: 1_000 },
    });

    const at80 = fold(decideTraffic(initialTrafficState(), request([report('a', 800)])));
    expect(at80.crossed).toEqual([80]);
    const next = decideTraffic(at80, request([report('b', 100)]));
    expect(next.map((event) => event.type)).toEqual(['TrafficReported']);
    expect(
      decideTraffic(
        fold([...decideTraffic(initialTrafficState(), request([report('a', 800)])), ...next]),
        request([report('c', 100)]),
      ).map((event) => event.type),
    ).toEqual(['TrafficReported', 'TrafficThresholdCrossed']);
  });

  it('keeps every earlier state as it was when later states count more ids, and lets an earlier state branch', () => {
    const first = fold(decideTraffic(initialTrafficState(), request([report('a', 1)])));
    const second = evolveTraffic(first, decideTraffic(first, request([report('b', 1)]))[0] as TrafficEvent);
    expect(decideTraffic(second, request([report('b', 1)]))).toEqual([]);
    // The first state still sees only 'a': deciding on it again counts 'b' (an append at its revision would then
    // conflict).
    expect(decideTraffic(first, request([report('b', 1)]))[0]).toMatchObject({
      data: { reports: [report('b', 1)], total: 2 },
    });
    const branch = evolveTraffic(first, decideTraffic(first, request([report('c', 1)]))[0] as TrafficEvent);
    expect(decideTraffic(branch, request([report('b', 1), report('c', 1)]))[0]).toMatchObject({
      data: { reports: [report('b', 1)] },
    });
    expect(decideTraffic(second, request([report('c', 1)]))[0]).toMatchObject({ data: { reports: [report('c', 1)] } });
    expect(decideTraffic(first, request([report('a', 1)]))).toEqual([]);
  });

  it('records no threshold for an unlimited allowance', () => {
    expect(thresholdsReached(10 ** 9, null)).toEqual([]);
    expect(
      decideTraffic(initialTrafficState(), request([report('a', 10 ** 9)], null)).map((event) => event.type),
    ).toEqual(['TrafficReported']);
  });

  it('keeps what each counted report said, so the same id with other content is told from a repeat', () => {
    const state = fold(decideTraffic(initialTrafficState(), request([report('a', 10)])));
    expect(countedContent(state.counted, 'a')).toBe(reportContent(report('a', 10)));
    expect(reportContent(report('a', 10))).not.toBe(reportContent(report('a', 11)));
    expect(reportContent({ ...report('a', 10), occurredAt: '2026-11-03T11:00:00.000+01:00' })).toBe(
      reportContent(report('a', 10)),
    );
    expect(reportContent({ ...report('a', 10), siteId: 'www' })).not.toBe(reportContent(report('a', 10)));
    expect(countedContent(state.counted, 'b')).toBeUndefined();
  });

  it('counts no id the neighbouring month counted already', () => {
    const elsewhere = (id: string) => (id === 'a' ? reportContent(report('a', 10)) : undefined);
    const events = decideTraffic(initialTrafficState(), {
      ...request([report('a', 10), report('b', 5)]),
      countedElsewhere: elsewhere,
    });
    expect(events).toEqual([
      {
        type: 'TrafficReported',
        data: { organizationId: 'acme', period: '2026-11', reports: [report('b', 5)], total: 5 },
      },
    ]);
  });

  it('names the month before, across a year', () => {
    expect(periodBefore('2026-11')).toBe('2026-10');
    expect(periodBefore('2027-01')).toBe('2026-12');
  });
});
