// The thread of a VerificationThread: replays the log into memory up to the position it was given, waits to be asked,
// then replays what follows and compares with the stored read models, and answers once.
import { parentPort, workerData } from 'node:worker_threads';
import { PersonalKeys, servedEventStore } from '#application';
import type { EventStore } from '#event-store';
import { MemoryReplay, openReadModelDatabase, readModelProjections } from '#read-models';
import { openStore, type OpenedStore } from './stores.js';
import type { VerificationAnswer, VerificationData, VerificationRequest } from './verification-thread.js';

const { location, upTo } = workerData as VerificationData;

/** Read as the servers read: sealed values opened with the people's keys, every event in its current shape. */
const reading = (opened: OpenedStore): EventStore =>
  servedEventStore(opened.events, new PersonalKeys(opened.keys), () => new Date());

async function replayedAhead(): Promise<{ opened: OpenedStore; replayed: MemoryReplay }> {
  const opened = await openStore(location);
  try {
    const replayed = await MemoryReplay.upTo({
      store: reading(opened),
      projections: readModelProjections(),
      position: upTo,
    });
    return { opened, replayed };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

async function answer(
  ahead: ReturnType<typeof replayedAhead>,
  request: VerificationRequest,
): Promise<VerificationAnswer> {
  try {
    const { opened, replayed } = await ahead;
    try {
      let replay = replayed;
      if (request.readsChanged) {
        // Someone was erased since the replay read their key: all again from the first event, through keys and
        // opened values read afresh (a cache of either would still open what the erasure closed).
        replayed.close();
        replay = await MemoryReplay.upTo({ store: reading(opened), projections: readModelProjections() });
      }
      const db = openReadModelDatabase(location.dataDir);
      try {
        return { verifications: await replay.verify(db) };
      } finally {
        db.close();
      }
    } finally {
      await opened.close();
    }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const port = parentPort;
if (port !== null) {
  const ahead = replayedAhead();
  // Its failure is answered when asked.
  ahead.catch(() => undefined);
  port.once('message', (request: VerificationRequest) => {
    void answer(ahead, request).then((reply) => port.postMessage(reply));
  });
}
