import type { SubscriptionFilter } from './event-store.port.js';

export function matchesSubscriptionFilter(
  filter: SubscriptionFilter | undefined,
  streamId: string,
  type: string,
): boolean {
  if (filter === undefined) return true;
  const { streamPrefixes, eventTypes } = filter;
  if (
    streamPrefixes !== undefined &&
    streamPrefixes.length > 0 &&
    !streamPrefixes.some((prefix) => streamId.startsWith(prefix))
  ) {
    return false;
  }
  return eventTypes === undefined || eventTypes.length === 0 || eventTypes.includes(type);
}
