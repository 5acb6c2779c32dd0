// `chorus store:verify --against <source>`: two logs walked side by side, event by event, and the first position
// where they differ named (an event missing on one side, or a field that is not the same). EventStoreDB's copied events
// are compared at the positions and times their copy noted (OpenedStore.view).
import type { StoredEvent } from '#event-store';
import { differenceBetween } from './copy-log.js';
import type { OpenedStore } from './stores.js';

const BATCH = 5_000;

export type Comparison =
  | { equal: true; events: number; headPosition: bigint | undefined }
  | { equal: false; events: number; position: bigint; difference: string };

/** One side's events in order, a batch read ahead; each side keeps its own place (EventStoreDB's are its own). */
async function* eventsOf(store: OpenedStore): AsyncGenerator<StoredEvent> {
  let page = store.copyLog.exportEvents(0n, BATCH);
  page.catch(() => undefined);
  for (;;) {
    const events = await page;
    const last = events.at(-1);
    if (last === undefined) return;
    page = store.copyLog.exportEvents(last.position, BATCH);
    // Read ahead: a comparison that ends before it is awaited leaves it unheard, never unhandled.
    page.catch(() => undefined);
    for (const event of events) yield store.view(event);
  }
}

export async function compareLogs(source: OpenedStore, target: OpenedStore): Promise<Comparison> {
  const left = eventsOf(source);
  const right = eventsOf(target);
  let events = 0;
  let headPosition: bigint | undefined;
  for (;;) {
    const [one, other] = await Promise.all([left.next(), right.next()]);
    if (one.done === true && other.done === true) return { equal: true, events, headPosition };
    if (one.done === true || other.done === true || one.value.position !== other.value.position) {
      const theirs = one.done === true ? undefined : one.value;
      const ours = other.done === true ? undefined : other.value;
      const position = [theirs?.position, ours?.position]
        .filter((value): value is bigint => value !== undefined)
        .reduce((low, value) => (value < low ? value : low));
      const missingHere = ours === undefined || (theirs !== undefined && theirs.position < ours.position);
      return {
        equal: false,
        events,
        position,
        difference: missingHere ? `${target.name} lacks the event there` : `${source.name} lacks the event there`,
      };
    }
    const difference = differenceBetween(one.value, other.value);
    if (difference !== undefined) return { equal: false, events, position: one.value.position, difference };
    events += 1;
    headPosition = one.value.position;
  }
}
