export * from './config.js';
export { eventStoreConnectionStringProblems, parseEventStoreConnectionString } from './eventstore-connection-string.js';
