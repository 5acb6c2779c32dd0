export * from './event-store.port.js';
export * from './command-context.js';
export * from './command-handler.js';
export { FoldedStateCache } from './folded-state-cache.js';
export { openEventStore, type OpenEventStoreOptions } from './open-event-store.js';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store.js';
export type { GroupCommitStats } from './sqlite-group-commit.js';
