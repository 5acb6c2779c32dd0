// An event store that counts the work asked of it, for tests that compare paths by the work they do
// (sign-in for a real account and for a name that is nobody's) or show that it does not grow.
import type { EventStore } from '#event-store';

export type StoreWork = { reads: number; eventsRead: number; appends: number };

export type CountedEventStore = { store: EventStore; work(): StoreWork };

export function countedEventStore(inner: EventStore): CountedEventStore {
  const work: StoreWork = { reads: 0, eventsRead: 0, appends: 0 };
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property === 'readStream') {
        return async (...args: Parameters<EventStore['readStream']>) => {
          const read = await target.readStream(...args);
          work.reads += 1;
          work.eventsRead += read.found ? read.events.length : 0;
          return read;
        };
      }
      if (property === 'append') {
        return (...args: Parameters<EventStore['append']>) => {
          work.appends += 1;
          return target.append(...args);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, work: () => ({ ...work }) };
}
