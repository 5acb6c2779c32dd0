import { eventSchemas } from '#domain';
import type { EventStore } from '#event-store';
import type { PersonalKeys } from './privacy/personal-keys-cache.js';
import { SealingEventStore } from './privacy/sealing-event-store.js';
import { UpcastingEventStore } from './upcasting-event-store.js';

/**
 * The store as every server reads and writes it: personal data sealed on the way in and opened on the way out, and
 * every event read in its current shape. One definition, so that a tool reading beside the servers reads as they do.
 */
export function servedEventStore(opened: EventStore, keys: PersonalKeys, now: () => Date): EventStore {
  return new UpcastingEventStore(new SealingEventStore(opened, keys, now), eventSchemas);
}
