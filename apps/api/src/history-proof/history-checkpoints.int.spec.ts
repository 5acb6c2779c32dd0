// When checkpoints are due (10,000 events, or an hour with anything new), what signing one verifies first, and two
// nodes signing at once on one store: one checkpoint each time, never two for the same events.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { loadConfig } from '#config';
import { ManualClock } from '#identity';
import { CHECKPOINT_STREAM, SqliteEventStore, type EventToAppend } from '#event-store';
import { AppClock } from '../config/app-clock.js';
import { HistoryCheckpoints } from './history-checkpoints.js';

let directory: string;
let stores: SqliteEventStore[];
let clock: ManualClock;

function node(): HistoryCheckpoints {
  const store = SqliteEventStore.open({ file: join(directory, 'events.sqlite') });
  stores.push(store);
  const appClock = new AppClock();
  appClock.pin(clock);
  return new HistoryCheckpoints(store, store, loadConfig({ DATA_DIR: directory }), pino({ level: 'silent' }), appClock);
}

const events = (count: number): EventToAppend[] =>
  Array.from({ length: count }, (_, n) => ({
    id: randomUUID(),
    type: 'SomethingHappened',
    data: { n },
    metadata: { actor: 'cli', correlationId: 'c', causationId: 'c' },
  }));

async function append(count: number): Promise<void> {
  const [store] = stores as [SqliteEventStore];
  for (let done = 0; done < count; done += 500)
    await store.append(`s-${randomUUID()}`, events(Math.min(500, count - done)), 'no_stream');
}

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'chorus-checkpoints-'));
  stores = [];
  clock = new ManualClock(new Date());
});

afterEach(async () => {
  await Promise.all(stores.map((store) => store.close()));
  rmSync(directory, { recursive: true, force: true });
});

describe('HistoryCheckpoints', () => {
  it('is due after 10,000 events, or an hour after the last with something new, and not for its own event', async () => {
    const checkpoints = node();
    expect(await checkpoints.due()).toBeUndefined();
    await append(9_999);
    expect(await checkpoints.due()).toBeUndefined();
    await append(1);
    expect(await checkpoints.due()).toBe('events');
    const signed = await checkpoints.signIfDue();
    expect(signed).toMatchObject({ position: '10000', reason: 'events' });
    // Its own event is nothing new, even hours on.
    clock.advance(7_200_000);
    expect(await checkpoints.due()).toBeUndefined();
    await append(1);
    expect(await checkpoints.due()).toBe('hour');
    await checkpoints.sign('hour');
    await append(1);
    clock.advance(3_599_999);
    expect(await checkpoints.due()).toBeUndefined();
    clock.advance(1);
    expect(await checkpoints.due()).toBe('hour');
    expect(await checkpoints.signIfDue()).toMatchObject({ position: '10004', reason: 'hour' });
  }, 60_000);

  it('signs for the first time an hour after the first event', async () => {
    const checkpoints = node();
    await append(3);
    expect(await checkpoints.due()).toBeUndefined();
    // The events were recorded a moment after the clock's start.
    clock.advance(3_601_000);
    expect(await checkpoints.due()).toBe('hour');
  });

  it('signs nothing once an event after the latest checkpoint is changed, and says where', async () => {
    const checkpoints = node();
    await append(20);
    await checkpoints.sign('on-demand');
    await append(20);
    const db = new Database(join(directory, 'events.sqlite'));
    db.exec('DROP TRIGGER events_are_never_changed');
    db.exec(`UPDATE events SET data = '{"n":99}' WHERE position = 30`);
    db.close();
    await expect(checkpoints.sign('on-demand')).rejects.toMatchObject({ code: 'CHAIN_BROKEN', failedAt: 30n });
    expect(checkpoints.lastVerdict).toMatchObject({ verified: false, failedAt: '30' });
    expect(await checkpoints.signIfDue()).toBeUndefined();
  });

  it('keeps one checkpoint when two nodes sign at once', async () => {
    const [one, two] = [node(), node()];
    await append(50);
    const [first, second] = await Promise.all([one.sign('on-demand'), two.sign('on-demand')]);
    expect(first).toEqual(second);
    const [store] = stores as [SqliteEventStore];
    const kept = await store.readStream(CHECKPOINT_STREAM);
    expect(kept.found && kept.events.length).toBe(1);
  });
});
