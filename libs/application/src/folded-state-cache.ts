import { makeRoom } from './bounded-map.js';
import type { FoldedStream, FoldedStreamCache } from './load-stream.js';

/** Bounded LRU. A stale entry costs a retry, never a wrong decision: appends still carry the expected revision. */
export class FoldedStateCache<State> implements FoldedStreamCache<State> {
  private readonly entries = new Map<string, FoldedStream<State>>();

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(streamId: string): FoldedStream<State> | undefined {
    const entry = this.entries.get(streamId);
    if (entry !== undefined) this.touch(streamId, entry);
    return entry;
  }

  /** Concurrent loads may finish out of order: keeps the newer fold. */
  remember(streamId: string, folded: FoldedStream<State>): void {
    const current = this.entries.get(streamId);
    if (current === undefined) makeRoom(this.entries, this.capacity);
    this.touch(streamId, current !== undefined && current.revision >= folded.revision ? current : folded);
  }

  forget(streamId: string): void {
    this.entries.delete(streamId);
  }

  // A Map iterates in insertion order: re-inserting moves the entry to the most recently used end.
  private touch(streamId: string, entry: FoldedStream<State>): void {
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
  }
}
