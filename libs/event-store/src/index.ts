export * from './event-store.port.js';
export { openEventStore, openLogRewriter, openPersonalKeys, type OpenEventStoreOptions } from './open-event-store.js';
export * from './log-rewrite.port.js';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store.js';
export type { GroupCommitStats } from './sqlite-group-commit.js';
export { PostgresEventStore, type PostgresEventStoreOptions } from './postgres-event-store.js';
export * from './personal-keys.port.js';
export { PERSONAL_KEYS_FILE, SqlitePersonalKeys } from './sqlite-personal-keys.js';
export { PostgresPersonalKeys } from './postgres-personal-keys.js';
