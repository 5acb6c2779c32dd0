// In the query string, so a reload or a shared link shows the same events and Back/Forward step through filters.
import type { TimelineFilter } from './api/history-contract';

const FILTER_NAMES = ['type', 'actor', 'from', 'to'] as const;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const isInstant = (value: string): boolean => INSTANT.test(value) && !Number.isNaN(Date.parse(value));

export function filterOfSearch(search: URLSearchParams): TimelineFilter {
  const filter: TimelineFilter = {};
  for (const name of FILTER_NAMES) {
    const value = search.get(name);
    if (value === null || value === '') continue;
    if ((name === 'from' || name === 'to') && !isInstant(value)) continue;
    filter[name] = name === 'from' || name === 'to' ? new Date(value).toISOString() : value;
  }
  return filter;
}

/** A fixed order: one URL per filter. */
export function searchOfFilter(filter: TimelineFilter): URLSearchParams {
  const search = new URLSearchParams();
  for (const name of FILTER_NAMES) {
    const value = filter[name];
    if (value !== undefined && value !== '') search.set(name, value);
  }
  return search;
}
