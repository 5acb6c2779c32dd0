import type { ApiKeyScope } from './api-key-scopes.js';

/** Each API key has its own stream, so every API node finds it in the shared event store. */
export const apiKeyStream = (keyId: string): string => `api-key-${keyId}`;

/** Only the hash of the secret is ever stored. */
export type ApiKeyCreated = {
  type: 'ApiKeyCreated';
  data: { keyId: string; name: string; scopes: ApiKeyScope[]; secretHash: string };
};
