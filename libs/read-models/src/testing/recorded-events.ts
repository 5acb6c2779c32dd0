// Builds RecordedEvents for tests that feed a projection without a store.
import { organizationStream, type OrganizationEvent } from '#domain';
import type { RecordedEvent } from '#event-store';

/**
 * Records an organization's events as the store would: revisions from `fromRevision`, positions from `fromPosition`.
 */
export function recordOrganizationEvents(
  organizationId: string,
  events: readonly OrganizationEvent[],
  { fromRevision = 0n, fromPosition = 1n }: { fromRevision?: bigint; fromPosition?: bigint } = {},
): RecordedEvent[] {
  return events.map((event, index) => ({
    id: `${organizationId}-${fromRevision + BigInt(index)}`,
    streamId: organizationStream(organizationId),
    type: event.type,
    data: event.data,
    metadata: { actor: 'system', correlationId: 'test', causationId: 'test' },
    recordedAt: new Date(0).toISOString(),
    revision: fromRevision + BigInt(index),
    position: fromPosition + BigInt(index),
  }));
}
