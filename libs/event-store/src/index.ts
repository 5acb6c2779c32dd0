export * from './event-store.port.js';
export {
  CHAIN_GENESIS,
  ChainCheck,
  chainLink,
  chainTime,
  eventDigest,
  linkDigest,
  type ChainBreak,
  type ChainedEvent,
  type ChainedFields,
} from './event-chain.js';
export * from './history-checkpoint.js';
export * from './history-proof-file.js';
export * from './history-signing-key.js';
export * from './unfinished-import.js';
export * from './postgres-restore-mark.js';
export { ForwardingEventStore } from './forwarding-event-store.js';
export {
  openEventStore,
  openEventStoreDbCopies,
  openLogRewriter,
  openPersonalKeys,
  type OpenEventStoreOptions,
} from './open-event-store.js';
export * from './copied-from.js';
export type { EventStoreDbCopies } from './eventstoredb-copies.js';
export { EventStoreDbSealingCopy } from './eventstoredb-sealing-copy.js';
export * from './log-rewrite.port.js';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite-event-store.js';
export type { GroupCommitStats } from './sqlite-group-commit.js';
// PostgreSQL's adapters are not exported here: openEventStore and openPersonalKeys load them (and `pg`) only
// when DATABASE_URL names that store, so the embedded store's processes start without them (bench/cli).
export * from './personal-keys.port.js';
export { PERSONAL_KEYS_FILE, SqlitePersonalKeys } from './sqlite-personal-keys.js';
export { snapshotSqliteFile } from './sqlite-snapshot.js';
