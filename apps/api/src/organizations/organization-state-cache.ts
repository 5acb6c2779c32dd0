import type { OrganizationState } from '#domain';
import { FoldedStateCache, type FoldedStream } from '#application';

/** An organization's state folded up to `revision` of its stream; `position` is that event's global position. */
export type FoldedOrganization = FoldedStream<OrganizationState>;

export const DEFAULT_CACHED_ORGANIZATIONS = 10_000;

/** The organizations' folded states (FoldedStateCache: least recently used first out, never trusted on its own). */
export class OrganizationStateCache extends FoldedStateCache<OrganizationState> {
  constructor(capacity: number = DEFAULT_CACHED_ORGANIZATIONS) {
    super(capacity);
  }
}
