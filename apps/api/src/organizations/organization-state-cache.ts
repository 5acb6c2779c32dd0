import type { OrganizationState } from '#domain';
import type { FoldedStream, FoldedStreamCache } from '#event-store';

/** An organization's state folded up to `revision` of its stream; `position` is that event's global position. */
export type FoldedOrganization = FoldedStream<OrganizationState>;

export const DEFAULT_CACHED_ORGANIZATIONS = 10_000;

/**
 * A bounded least-recently-used cache of folded states, so that loading an organization reads only the
 * events recorded after the cached revision. Never trusted for a decision on its own: appends still
 * carry the expected revision, so a stale entry costs a retry, never a wrong decision.
 */
export class OrganizationStateCache implements FoldedStreamCache<OrganizationState> {
  private readonly entries = new Map<string, FoldedOrganization>();

  constructor(readonly capacity: number = DEFAULT_CACHED_ORGANIZATIONS) {}

  get size(): number {
    return this.entries.size;
  }

  get(streamId: string): FoldedOrganization | undefined {
    const entry = this.entries.get(streamId);
    if (entry !== undefined) this.touch(streamId, entry);
    return entry;
  }

  /** Keeps the newer of the stored and the offered fold (concurrent loads may finish out of order). */
  remember(streamId: string, folded: FoldedOrganization): void {
    const current = this.entries.get(streamId);
    this.touch(streamId, current !== undefined && current.revision >= folded.revision ? current : folded);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.capacity) break;
      this.entries.delete(oldest);
    }
  }

  forget(streamId: string): void {
    this.entries.delete(streamId);
  }

  // A Map iterates in insertion order: re-inserting moves the entry to the most recently used end.
  private touch(streamId: string, entry: FoldedOrganization): void {
    this.entries.delete(streamId);
    this.entries.set(streamId, entry);
  }
}
