export * from './command-handler.js';
export { FoldedStateCache } from './folded-state-cache.js';
