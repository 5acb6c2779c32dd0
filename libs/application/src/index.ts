export * from './command-context.js';
export * from './command-handler.js';
export { FoldedStateCache } from './folded-state-cache.js';
