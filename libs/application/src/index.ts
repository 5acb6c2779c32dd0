export * from './command-handler.js';
export { FoldedStateCache } from './folded-state-cache.js';
export { SCHEMA_VERSION, UpcastingEventStore } from './upcasting-event-store.js';
