// An attacker making one organization's SSO sign-ons fail without end, on one node and on two sharing a
// store: the failure stream stays bounded per hour, and the failures it counts stay exact.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { newCommandContext } from '#application';
import { SqliteEventStore, type RecordedEvent } from '#event-store';
import { ManualClock } from '#identity';
import { AppClock } from '../config/app-clock.js';
import { FAILURE_WINDOW_MS, FAILURES_IN_FULL_PER_HOUR } from '#domain';
import { SsoSignOnFailureLog } from './sso-sign-on-failure-log.js';
import { ssoSignOnStream, type SsoFailureReason } from '#domain';
import { SsoSignOnFailure } from './sso-sign-on-failure.error.js';

const reasons: SsoFailureReason[] = ['state', 'token-refused', 'foreign-domain', 'provider-error'];
const stream = ssoSignOnStream('acme');
let dataDir: string;
let clock: ManualClock;
const opened: { store: SqliteEventStore; log: SsoSignOnFailureLog }[] = [];

/**
 * One API node: its own store object on the shared file (so nodes race through the expected revision) and its own log.
 */
function node(): SsoSignOnFailureLog {
  const store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  const identityClock = new AppClock();
  identityClock.pin(clock);
  const log = new SsoSignOnFailureLog(store, identityClock, pino({ level: 'silent' }));
  opened.push({ store, log });
  return log;
}

/** `count` failures, reasons in turn, all at once. */
const fail = (log: SsoSignOnFailureLog, count: number): Promise<boolean[]> =>
  Promise.all(
    Array.from({ length: count }, (_, index) =>
      log.record(
        'acme',
        new SsoSignOnFailure(reasons[index % reasons.length] ?? 'error', 'bad state'),
        newCommandContext('anonymous'),
      ),
    ),
  );

async function stored(): Promise<RecordedEvent[]> {
  const read = await opened[0]?.store.readStream(stream);
  return read?.found === true ? read.events : [];
}

type Counts = { total: number; byReason: Record<string, number> };

/** The failures of the hour starting at `from`, as an auditor adds them up: the ones in full, plus the counts. */
function failuresOf(events: RecordedEvent[], from: string): Counts {
  const counts: Counts = { total: 0, byReason: {} };
  const add = (reason: string, count: number) => {
    counts.total += count;
    counts.byReason[reason] = (counts.byReason[reason] ?? 0) + count;
  };
  for (const event of events) {
    const data = event.data as { at?: string; reason?: string; from?: string; byReason?: Record<string, number> };
    const inHour =
      data.at !== undefined && data.at >= from && Date.parse(data.at) < Date.parse(from) + FAILURE_WINDOW_MS;
    if (event.type === 'SsoSignOnFailed' && inHour) add(data.reason ?? '', 1);
    if (event.type === 'SsoSignOnFailuresCounted' && data.from === from)
      for (const [reason, count] of Object.entries(data.byReason ?? {})) add(reason, count);
  }
  return counts;
}

/** What batches of `fail` of these sizes amount to. */
function expected(...batches: number[]): Counts {
  const counts: Counts = { total: 0, byReason: {} };
  for (const size of batches) {
    for (let index = 0; index < size; index += 1) {
      const reason = reasons[index % reasons.length] as string;
      counts.byReason[reason] = (counts.byReason[reason] ?? 0) + 1;
      counts.total += 1;
    }
  }
  return counts;
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-sso-failures-'));
  clock = new ManualClock('2031-05-06T10:15:00.000Z');
});
afterEach(async () => {
  for (const { store, log } of opened.splice(0)) {
    await log.onModuleDestroy();
    await store.close();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('failed SSO sign-ons of one organization', () => {
  it("are stored in full up to the hour's sample, then counted: the next hour writes the count, exact by reason", async () => {
    const log = node();
    const inFull = await fail(log, 500);
    expect(inFull.filter(Boolean)).toHaveLength(FAILURES_IN_FULL_PER_HOUR);
    expect(await stored()).toHaveLength(FAILURES_IN_FULL_PER_HOUR);

    clock.advance(FAILURE_WINDOW_MS);
    expect(await fail(log, 1)).toEqual([true]);
    const events = await stored();

    expect(events.map((event) => event.type)).toEqual([
      ...Array<string>(FAILURES_IN_FULL_PER_HOUR).fill('SsoSignOnFailed'),
      'SsoSignOnFailuresCounted',
      'SsoSignOnFailed',
    ]);
    expect(events[FAILURES_IN_FULL_PER_HOUR]?.data).toMatchObject({
      from: '2031-05-06T10:00:00.000Z',
      to: '2031-05-06T11:00:00.000Z',
      total: 480,
    });
    expect(failuresOf(events, '2031-05-06T10:00:00.000Z')).toEqual(expected(500));
    expect(failuresOf(events, '2031-05-06T11:00:00.000Z')).toEqual(expected(1));
  });

  it('stay bounded when two nodes record at once: one sample per hour in all, at most one count per node', async () => {
    const [first, second] = [node(), node()];
    await Promise.all([fail(first, 150), fail(second, 150)]);
    await Promise.all([first.writeCounts(true), second.writeCounts(true)]);
    const events = await stored();

    expect(events.filter((event) => event.type === 'SsoSignOnFailed')).toHaveLength(FAILURES_IN_FULL_PER_HOUR);
    expect(events.filter((event) => event.type === 'SsoSignOnFailuresCounted').length).toBeLessThanOrEqual(2);
    expect(failuresOf(events, '2031-05-06T10:00:00.000Z')).toEqual(expected(150, 150));
  });

  it('a day of failures at 30 a minute on each of two nodes stores at most the sample and two counts an hour, and counts them all', async () => {
    const [first, second] = [node(), node()];
    for (let minute = 0; minute < 24 * 60; minute += 10) {
      // 300 failures per node every 10 minutes: 30 a minute.
      await Promise.all([fail(first, 300), fail(second, 300)]);
      clock.advance(10 * 60_000);
    }
    await Promise.all([first.writeCounts(true), second.writeCounts(true)]);
    const events = await stored();

    expect(events.length).toBeLessThanOrEqual(25 * (FAILURES_IN_FULL_PER_HOUR + 2));
    const hours = Array.from({ length: 24 }, (_, hour) =>
      new Date(Date.parse('2031-05-06T10:00:00.000Z') + hour * FAILURE_WINDOW_MS).toISOString(),
    );
    // The clock started at 10:15: the first hour has 45 minutes of failures, the last one 15.
    const perHour = hours.map((from) => failuresOf(events, from).total);
    expect(perHour.reduce((sum, total) => sum + total, 0) + failuresOf(events, '2031-05-07T10:00:00.000Z').total).toBe(
      24 * 60 * 60,
    );
  }, 60_000);

  it('writes the counts of the current hour when the node shuts down', async () => {
    const log = node();
    await fail(log, FAILURES_IN_FULL_PER_HOUR + 7);
    await log.onModuleDestroy();

    expect(failuresOf(await stored(), '2031-05-06T10:00:00.000Z')).toEqual(expected(FAILURES_IN_FULL_PER_HOUR + 7));
  });
});
