import type { AppendResult } from './event-store.port.js';

export type StoredEventRef = { id: string; revision: bigint; position: bigint };

/** Undefined unless the ids are exactly the stored events from `firstRevision` on. */
export function replayedAppendResult(
  ids: readonly string[],
  stored: readonly StoredEventRef[],
  firstRevision: bigint,
): AppendResult | undefined {
  if (stored.length !== ids.length) return undefined;
  for (const [index, id] of ids.entries()) {
    const event = stored[index];
    if (event === undefined || event.id !== id || event.revision !== firstRevision + BigInt(index)) return undefined;
  }
  const last = stored[stored.length - 1];
  return last === undefined ? undefined : { nextExpectedRevision: last.revision, position: last.position };
}
