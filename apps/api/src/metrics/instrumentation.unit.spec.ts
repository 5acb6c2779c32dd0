import { describe, expect, it } from '@jest/globals';
import { WrongExpectedRevisionError, type EventStore } from '#event-store';
import { ChorusMetrics } from './chorus-metrics.js';
import { TimedEventStore } from './instrumentation.js';

/** A store whose append does what `outcome` says: resolve, reject with a conflict or an error, or throw at once. */
function instrumented(outcome: () => Promise<unknown>): { metrics: ChorusMetrics; store: EventStore } {
  const metrics = new ChorusMetrics(() => Promise.reject(new Error('no read models here')));
  const inner = { append: () => outcome() } as unknown as EventStore;
  return { metrics, store: new TimedEventStore(inner, metrics, 'sqlite') };
}

async function appendCounts(metrics: ChorusMetrics): Promise<Record<string, number>> {
  const { values } = await metrics.appendDuration.get();
  const counts: Record<string, number> = {};
  for (const value of values) {
    if (value.metricName === 'chorus_event_store_append_duration_seconds_count')
      counts[`${value.labels.store as string} ${value.labels.outcome as string}`] = value.value;
  }
  return counts;
}

describe('the appends timed by TimedEventStore', () => {
  it('answers what the store answers, and counts each append by its outcome', async () => {
    const conflict = new WrongExpectedRevisionError('organization-a', 'no_stream', 1n);
    const failure = new Error('disk full');
    const answers: (() => Promise<unknown>)[] = [
      () => Promise.resolve({ position: 1n }),
      () => Promise.resolve({ position: 2n }),
      () => Promise.reject(conflict),
      () => Promise.reject(failure),
      () => {
        throw failure;
      },
    ];
    let next = 0;
    const { metrics, store } = instrumented(() => (answers[next++] as () => Promise<unknown>)());
    const append = () => store.append('organization-a', [], 'any');

    await expect(append()).resolves.toEqual({ position: 1n });
    await expect(append()).resolves.toEqual({ position: 2n });
    await expect(append()).rejects.toBe(conflict);
    await expect(append()).rejects.toBe(failure);
    await expect(append()).rejects.toBe(failure);

    expect(await appendCounts(metrics)).toEqual({ 'sqlite ok': 2, 'sqlite conflict': 1, 'sqlite error': 2 });
  });
});

describe('the store behind TimedEventStore', () => {
  it('offers the by-stream read only where the store has one', () => {
    const metrics = new ChorusMetrics(() => Promise.reject(new Error('no read models here')));
    const plain = { append: () => Promise.resolve({ position: 1n }) } as unknown as EventStore;
    const byStream = { ...plain, readLogByStream: () => Promise.resolve([]) } as unknown as EventStore;
    expect(new TimedEventStore(plain, metrics, 'sqlite').readLogByStream).toBeUndefined();
    expect(new TimedEventStore(byStream, metrics, 'sqlite').readLogByStream).toBeInstanceOf(Function);
  });
});
