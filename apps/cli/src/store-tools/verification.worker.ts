// The thread of a VerificationThread: replays the log into memory up to the position it was given, waits to be asked,
// then replays what follows and compares with the stored read models, and answers once.
import { parentPort, workerData } from 'node:worker_threads';
import { PersonalKeys, servedEventStore } from '#application';
import { MemoryReplay, openReadModelDatabase, readModelProjections } from '#read-models';
import { openStore } from './stores.js';
import type { VerificationAnswer, VerificationData, VerificationRequest } from './verification-thread.js';

const { location, upTo } = workerData as VerificationData;

async function replayedAhead(): Promise<{ replayed: MemoryReplay; close: () => Promise<void> }> {
  const opened = await openStore(location);
  try {
    // Read as the servers read: sealed values opened with the people's keys, every event in its current shape.
    const store = servedEventStore(opened.events, new PersonalKeys(opened.keys), () => new Date());
    const replayed = await MemoryReplay.upTo({ store, projections: readModelProjections(), position: upTo });
    return { replayed, close: () => opened.close() };
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
    const { replayed, close } = await ahead;
    const db = openReadModelDatabase(location.dataDir);
    try {
      return { verifications: await replayed.verify(db, { readsChanged: request.readsChanged }) };
    } finally {
      db.close();
      await close();
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
