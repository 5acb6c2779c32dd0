// One command at a time per stream in this process: the seam that keeps concurrent commands on one stream
// from losing races to each other (other processes still race through the expected revision).
import type { EventStore } from '#event-store';

/**
 * The command now running on each stream of each store in this process, or the last one queued.
 * Keyed by the store object, so two stores (two nodes, in tests) still race each other through the
 * expected revision.
 */
const streamQueues = new WeakMap<EventStore, Map<string, Promise<unknown>>>();

/**
 * Runs `work` after every command this process started earlier on the same stream has ended. A command
 * decided while another one's append on the same stream is still in flight would lose to it and decide
 * again: N commands at once on one stream would need N attempts, and past MAX_DECISION_ATTEMPTS the
 * last ones were refused with a conflict no one else caused. In turn, each decides once on the state the
 * previous one left. Other processes still race through the expected revision, as before.
 */
export async function oneAtATime<T>(store: EventStore, streamId: string, work: (waited: boolean) => Promise<T>): Promise<T> {
  let queues = streamQueues.get(store);
  if (queues === undefined) {
    queues = new Map();
    streamQueues.set(store, queues);
  }
  const previous = queues.get(streamId);
  const running = previous === undefined ? work(false) : previous.then(() => work(true));
  const ended = running.then(noop, noop);
  queues.set(streamId, ended);
  try {
    return await running;
  } finally {
    if (queues.get(streamId) === ended) queues.delete(streamId);
  }
}

const noop = (): void => undefined;

