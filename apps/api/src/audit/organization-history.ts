// An organization's stream, page by page, oldest first: the auditors' complete record.
import { DomainError, organizationStream } from '#domain';
import type { EventStore, RecordedEvent } from '#event-store';

export const DEFAULT_HISTORY_PAGE_SIZE = 100;
export const MAX_HISTORY_PAGE_SIZE = 1_000;

export type HistoryPageRequest = { fromRevision?: bigint; limit?: number };

export type HistoryPage = {
  events: RecordedEvent[];
  /** Where the next page starts: also where to poll for events recorded later. */
  nextFromRevision: bigint;
  /** Whether more events were already recorded past this page. */
  hasMore: boolean;
};

export const organizationNotFound = (): DomainError =>
  new DomainError('NOT_FOUND', 'The organization does not exist.', { entity: 'organization' });

export async function readOrganizationHistory(
  store: EventStore,
  organizationId: string,
  { fromRevision = 0n, limit = DEFAULT_HISTORY_PAGE_SIZE }: HistoryPageRequest = {},
): Promise<HistoryPage> {
  // One more than asked tells whether another page follows without a second read.
  const read = await store.readStream(organizationStream(organizationId), { fromRevision, maxCount: limit + 1 });
  if (!read.found) throw organizationNotFound();
  const events = read.events.slice(0, limit);
  const last = events.at(-1);
  return {
    events,
    nextFromRevision: last === undefined ? fromRevision : last.revision + 1n,
    hasMore: read.events.length > limit,
  };
}
