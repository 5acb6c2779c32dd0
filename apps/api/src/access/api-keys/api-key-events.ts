import type { ApiKeyScope } from './api-key-scopes.js';

/** Each API key has its own stream, so every API node finds it in the shared event store. */
export const apiKeyStreamPrefix = 'api-key-';
export const apiKeyStream = (keyId: string): string => `${apiKeyStreamPrefix}${keyId}`;

/**
 * Only the hash of the secret is ever stored. organizationId: the key is bound to that organization and
 * refused everywhere else (absent: not bound, as every key made before binding existed).
 */
export type ApiKeyCreated = {
  type: 'ApiKeyCreated';
  data: { keyId: string; name: string; scopes: ApiKeyScope[]; secretHash: string; organizationId?: string };
};
/** The key is refused from now on: at once on the node that revoked it, within API_KEY_CACHE_MS on every other. */
export type ApiKeyRevoked = { type: 'ApiKeyRevoked'; data: { keyId: string; at: string } };
/** The key was used; written at most once an hour (API_KEY_USE_GRANULARITY_MS), so that it stays cheap. */
export type ApiKeyUsed = { type: 'ApiKeyUsed'; data: { keyId: string; at: string } };

export type ApiKeyEvent = ApiKeyCreated | ApiKeyRevoked | ApiKeyUsed;
