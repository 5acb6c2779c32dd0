// `chorus store:verify --against <source>`: two logs walked side by side, event by event, and the first position
// where they differ named (an event missing on one side, or a field that is not the same).
import type { StoredEvent } from '#event-store';
import { differenceBetween } from './copy-log.js';
import type { OpenedStore } from './stores.js';

const BATCH = 5_000;

export type Comparison =
  | { equal: true; events: number; headPosition: bigint | undefined }
  | { equal: false; events: number; position: bigint; difference: string };

/** Reads ahead one batch on each side and compares in position order. */
export async function compareLogs(source: OpenedStore, target: OpenedStore): Promise<Comparison> {
  const theirs = source.exact;
  const ours = target.exact;
  if (theirs === undefined || ours === undefined)
    throw new Error('store:verify --against compares the embedded store and PostgreSQL, which keep every position');
  let events = 0;
  let after = 0n;
  for (;;) {
    const [left, right] = await Promise.all([theirs.exportEvents(after, BATCH), ours.exportEvents(after, BATCH)]);
    const length = Math.max(left.length, right.length);
    for (let index = 0; index < length; index += 1) {
      const one: StoredEvent | undefined = left[index];
      const other: StoredEvent | undefined = right[index];
      if (one === undefined || other === undefined || one.position !== other.position) {
        const position = [one?.position, other?.position]
          .filter((value): value is bigint => value !== undefined)
          .reduce((low, value) => (value < low ? value : low));
        const missingHere = other === undefined || (one !== undefined && one.position < other.position);
        return {
          equal: false,
          events,
          position,
          difference: missingHere ? `${target.name} lacks the event there` : `${source.name} lacks the event there`,
        };
      }
      const difference = differenceBetween(one, other);
      if (difference !== undefined) return { equal: false, events, position: one.position, difference };
      events += 1;
    }
    if (length === 0) return { equal: true, events, headPosition: after === 0n ? undefined : after };
    // Both sides held the same positions in this batch, or a difference was returned.
    after = (left.at(-1) as StoredEvent).position;
  }
}
