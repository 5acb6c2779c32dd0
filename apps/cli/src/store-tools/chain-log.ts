// The log's chain walked (store:verify) and given to a log written before it (store:chain), page by page.
import { ChainCheck, type ChainBreak, type ChainedLog, type EventStore } from '#event-store';
import { StoreRefusal } from './store-refusal.js';
import type { OpenedStore } from './stores.js';

const PAGE = 10_000;

const chainedOf = (store: EventStore): ChainedLog | undefined =>
  'readChain' in store ? (store as EventStore & ChainedLog) : undefined;

/** Only the embedded store keeps a chain so far: another kind is refused in words that say so. */
export function chainOf(store: OpenedStore): ChainedLog {
  const chained = chainedOf(store.events);
  if (chained === undefined)
    throw new StoreRefusal(
      409,
      'NOT_CHAINED',
      'The log keeps no chain',
      `${store.name} keeps no chain of its events yet: only the embedded store does (docs/history.md)`,
    );
  return chained;
}

export type ChainVerification = {
  /** Events whose hash holds, from the first: the log is proven up to `provenTo`. */
  checked: number;
  provenTo: bigint | undefined;
  /** Events with no hash (written before the chain): `store:chain` gives them one. */
  unchained: number;
  broken: ChainBreak | undefined;
};

/** Walks the whole log; stops at the first break. */
export async function verifyChain(log: ChainedLog): Promise<ChainVerification> {
  const check = new ChainCheck();
  for (let after = 0n; ;) {
    const page = await log.readChain(after, PAGE);
    for (const event of page) if (check.next(event) !== undefined) break;
    const last = page.at(-1);
    if (last === undefined || check.broken !== undefined) break;
    after = last.position;
  }
  return { checked: check.checked, provenTo: check.provenTo, unchained: check.unchained, broken: check.broken };
}

/** Gives every event without a hash its own, in log order; safe to run again, and beside servers that append. */
export async function chainLog(log: ChainedLog): Promise<{ chained: number; lastPosition: bigint | undefined }> {
  let chained = 0;
  let lastPosition: bigint | undefined;
  for (let after = 0n; ;) {
    const page = await log.chainNext(after, PAGE);
    if (page.lastPosition === undefined) break;
    chained += page.chained;
    lastPosition = page.lastPosition;
    after = page.lastPosition;
  }
  return { chained, lastPosition };
}
