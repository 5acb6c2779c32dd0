// The embedded store's commits are synced off the event loop (WalSync): what waits for the sync of the WAL, and what
// does not. The syncs here are Node's own fdatasync, held back until the test lets each one go.
import { randomUUID } from 'node:crypto';
import { fdatasync, fdatasyncSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { EventToAppend, RecordedEvent } from './event-store.port.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { LogSyncFailedError } from './sqlite-wal-sync.js';

type HeldSync = { fd: number; done: (error: NodeJS.ErrnoException | null) => void };

const anEvent = (): EventToAppend => ({
  id: randomUUID(),
  type: 'SomethingHappened',
  data: {},
  metadata: { actor: 'user:test', correlationId: randomUUID(), causationId: randomUUID() },
});
const turns = async (count = 5): Promise<void> => {
  for (let turn = 0; turn < count; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

let directory: string;
let held: HeldSync[];
let failWith: NodeJS.ErrnoException | undefined;
let store: SqliteEventStore;

/** Lets the oldest held sync run for real, and waits until its writers have been answered. */
async function releaseSync(): Promise<void> {
  const sync = held.shift();
  if (sync === undefined) throw new Error('no sync is waiting');
  await new Promise<void>((resolve) =>
    fdatasync(sync.fd, (error) => {
      sync.done(error);
      resolve();
    }),
  );
  await turns();
}

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'chorus-wal-sync-'));
  held = [];
  failWith = undefined;
  store = SqliteEventStore.open({
    file: join(directory, 'events.sqlite'),
    syncFile: (fd, done) => (failWith === undefined ? held.push({ fd, done }) : done(failWith)),
  });
});

afterEach(async () => {
  while (held.length > 0) await releaseSync();
  await store.close().catch(() => undefined);
  rmSync(directory, { recursive: true, force: true });
});

describe("the embedded store's sync of its WAL", () => {
  it('answers an append only once a sync begun after its commit has ended, and shows it to subscriptions only then', async () => {
    const delivered: RecordedEvent[] = [];
    const subscription = store.subscribeToAll({ onEvent: (event) => void delivered.push(event) });
    let answered = false;
    const appended = store.append('org-1', [anEvent()], 'no_stream').then((result) => {
      answered = true;
      return result;
    });
    await turns();

    // Committed: a command deciding next on the stream sees it; nobody has been told, nothing was delivered.
    const read = await store.readStream('org-1');
    expect(read.found && read.events).toHaveLength(1);
    expect(answered).toBe(false);
    expect(delivered).toHaveLength(0);
    expect(held).toHaveLength(1);

    await releaseSync();
    expect(answered).toBe(true);
    expect(delivered.map((event) => event.position)).toEqual([(await appended).position]);
    await subscription.close();
  });

  it('holds the writes that come while a sync runs, then commits them together and answers them with one sync', async () => {
    await Promise.all([store.append('org-1', [anEvent()], 'no_stream'), turns().then(releaseSync)]);
    const first = store.append('org-1', [anEvent()], 0n);
    await turns();
    expect(held).toHaveLength(1);
    const before = store.groupCommitStats();

    // Three tasks of their own append while the first sync runs: they wait, not even committed yet.
    const answered: string[] = [];
    const later = ['org-2', 'org-3', 'org-4'].map(
      (stream) =>
        new Promise((resolve) =>
          setImmediate(() => resolve(store.append(stream, [anEvent()], 'no_stream').then(() => answered.push(stream)))),
        ),
    );
    await turns();
    expect(held).toHaveLength(1);
    expect(store.groupCommitStats().commits).toBe(before.commits);
    expect((await store.readStream('org-2')).found).toBe(false);

    await releaseSync();
    await first;
    expect(answered).toEqual([]);
    // One commit, one sync for the three.
    expect(store.groupCommitStats()).toMatchObject({ commits: before.commits + 1, writes: before.writes + 3 });
    expect(held).toHaveLength(1);
    await releaseSync();
    await Promise.all(later);
    expect(answered.sort()).toEqual(['org-2', 'org-3', 'org-4']);
    expect(held).toHaveLength(0);
  });

  it('answers the appends of a sync that failed with its error, then refuses every write and its health check', async () => {
    await Promise.all([store.append('org-1', [anEvent()], 'no_stream'), turns().then(releaseSync)]);
    failWith = Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });

    const failed = store.append('org-1', [anEvent()], 0n);
    await expect(failed).rejects.toThrow(LogSyncFailedError);
    await expect(failed).rejects.toThrow(/events\.sqlite-wal could not be synced to disk \(EIO/);
    await expect(store.append('org-2', [anEvent()], 'no_stream')).rejects.toThrow(LogSyncFailedError);
    await expect(store.ping()).rejects.toThrow(LogSyncFailedError);
  });

  it('answers the writes held back for a sync that then fails with its error too, rather than leaving them waiting', async () => {
    const committed = store.append('org-1', [anEvent()], 'no_stream');
    await turns();
    const heldBack = new Promise((resolve) =>
      setImmediate(() => resolve(store.append('org-2', [anEvent()], 'no_stream'))),
    );
    await turns();
    expect(held).toHaveLength(1);

    held.shift()?.done(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(committed).rejects.toThrow(LogSyncFailedError);
    await expect(heldBack).rejects.toThrow(LogSyncFailedError);
  });

  it('syncs what another process committed before a new subscription starts, so that it is delivered', async () => {
    const other = SqliteEventStore.open({ file: join(directory, 'events.sqlite') });
    const { position } = await other.append('org-1', [anEvent()], 'no_stream');
    await other.close();

    const delivered = await new Promise<RecordedEvent>((resolve) => {
      const subscription = store.subscribeToAll({
        onEvent: (event) => void subscription.close().then(() => resolve(event)),
      });
    });
    expect(delivered.position).toBe(position);
  });
});

describe('a writer alone', () => {
  /** A store of its own whose syncs run for real and are counted: on the event loop, or in the thread pool. */
  function countingStore(failHere?: () => NodeJS.ErrnoException | undefined) {
    const syncs = { here: 0, inThePool: 0 };
    const alone = SqliteEventStore.open({
      file: join(directory, 'alone.sqlite'),
      syncFile: (fd, done) => {
        syncs.inThePool += 1;
        fdatasync(fd, done);
      },
      syncFileNow: (fd) => {
        syncs.here += 1;
        const failure = failHere?.();
        if (failure !== undefined) throw failure;
        fdatasyncSync(fd);
      },
    });
    return { alone, syncs };
  }

  it('is synced on the event loop while it awaits its own appends, and each append is answered after its sync', async () => {
    const { alone, syncs } = countingStore();
    let committedBefore = alone.groupCommitStats().commits;
    for (let revision = -1n; revision < 49n; revision += 1n) {
      const synced = syncs.here + syncs.inThePool;
      await alone.append('org-1', [anEvent()], revision < 0n ? 'no_stream' : revision);
      // One commit, and a sync begun after it, before the answer.
      expect(alone.groupCommitStats().commits).toBe(committedBefore + 1);
      expect(syncs.here + syncs.inThePool).toBe(synced + 1);
      committedBefore += 1;
    }
    // The thread pool only for the first append and the turn taken every few commits.
    expect(syncs.here).toBeGreaterThanOrEqual(40);
    await alone.close();
  });

  it('is synced in the thread pool when the writes come from tasks of their own, as requests do', async () => {
    const { alone, syncs } = countingStore();
    const writer = async (stream: string): Promise<void> => {
      for (let revision = -1n; revision < 19n; revision += 1n) {
        await new Promise((resolve) => setImmediate(resolve));
        await alone.append(stream, [anEvent()], revision < 0n ? 'no_stream' : revision);
      }
    };
    await Promise.all(['org-1', 'org-2', 'org-3', 'org-4'].map(writer));
    expect(syncs).toEqual({ here: 0, inThePool: expect.any(Number) });
    expect(syncs.inThePool).toBeGreaterThanOrEqual(20);
    await alone.close();
  });

  it('answers a sync on the loop that failed with its error, then refuses every write', async () => {
    let failing = false;
    const { alone, syncs } = countingStore(() =>
      failing ? Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }) : undefined,
    );
    // Appends until one was synced on the loop: the next is too.
    let appended = 0n;
    for (; syncs.here === 0; appended += 1n)
      await alone.append('org-1', [anEvent()], appended === 0n ? 'no_stream' : appended - 1n);
    failing = true;

    await expect(alone.append('org-1', [anEvent()], appended - 1n)).rejects.toThrow(LogSyncFailedError);
    expect(syncs.here).toBe(2);
    await expect(alone.append('org-2', [anEvent()], 'no_stream')).rejects.toThrow(LogSyncFailedError);
    await expect(alone.ping()).rejects.toThrow(LogSyncFailedError);
    await alone.close().catch(() => undefined);
  });
});
