export * from './command-context.js';
export * from './command-handler.js';
export * from './stream-load.js';
export { FoldedStateCache } from './folded-state-cache.js';
