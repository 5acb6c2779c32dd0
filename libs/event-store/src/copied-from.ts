// A copy into EventStoreDB keeps every field of an event but the two EventStoreDB gives itself as it commits: the
// position and the time. Those go into the event's metadata (`copiedFrom`), and reading the event answers its original
// time, so a copied history reads as it did. Without the EventStoreDB client: comparisons use it too.
import type { EventMetadata, StoredEvent } from './event-store.port.js';

export const COPIED_FROM = 'copiedFrom';

/** Where the event was in the log it was copied from, and when it was recorded there. */
export type CopiedFrom = { position: string; recordedAt: string };

export function copiedFromOf(metadata: unknown): CopiedFrom | undefined {
  if (metadata === null || typeof metadata !== 'object') return undefined;
  const value = (metadata as Record<string, unknown>)[COPIED_FROM];
  if (value === null || typeof value !== 'object') return undefined;
  const { position, recordedAt } = value as Record<string, unknown>;
  return typeof position === 'string' && /^\d+$/.test(position) && typeof recordedAt === 'string'
    ? { position, recordedAt }
    : undefined;
}

/** The metadata a copy into EventStoreDB writes: the source's, and where and when the source had the event. */
export function withCopiedFrom(
  metadata: Readonly<Record<string, unknown>>,
  position: bigint,
  recordedAt: string,
): EventMetadata {
  const { [COPIED_FROM]: _earlier, ...own } = metadata;
  // Kept as the source stored it, with or without the fields Chorus writes: a copy adds none.
  const copied: Record<string, unknown> = { ...own, [COPIED_FROM]: { position: position.toString(), recordedAt } };
  return copied as EventMetadata;
}

/** The metadata's JSON text without the copy's note. */
export function metadataWithoutCopiedFrom(metadata: string): string {
  const parsed = JSON.parse(metadata) as Record<string, unknown>;
  if (!(COPIED_FROM in parsed)) return metadata;
  const { [COPIED_FROM]: _note, ...own } = parsed;
  return JSON.stringify(own);
}

/**
 * An event of a store a copy wrote into EventStoreDB, as its source held it: at the source's position, its metadata
 * without the copy's note. An event without the note was not copied: it is answered as it is.
 */
export function asCopied(event: StoredEvent): StoredEvent {
  const copied = copiedFromOf(JSON.parse(event.metadata));
  if (copied === undefined) return event;
  return {
    ...event,
    position: BigInt(copied.position),
    recordedAt: copied.recordedAt,
    metadata: metadataWithoutCopiedFrom(event.metadata),
  };
}
