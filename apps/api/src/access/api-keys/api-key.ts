// An API key's state: the fold of its stream.
import type { StreamFold } from '#application';
import type { RecordedEvent } from '#event-store';
import type { ApiKeyEvent } from './api-key-events.js';
import type { ApiKeyScope } from './api-key-scopes.js';

export type ApiKey = {
  keyId: string;
  name: string;
  scopes: ApiKeyScope[];
  /** The one organization the key may reach; null: any the scopes allow. */
  organizationId: string | null;
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
  /** To the hour (API_KEY_USE_GRANULARITY_MS); null: never used since it was made, or since uses were recorded. */
  lastUsedAt: string | null;
};

export type ApiKeyState = ApiKey | null;

/** An event of the key's stream with the instant the store recorded it (the creation's time). */
type ReadApiKeyEvent = ApiKeyEvent & { recordedAt?: string };

export function evolveApiKey(state: ApiKeyState, event: ReadApiKeyEvent): ApiKeyState {
  switch (event.type) {
    case 'ApiKeyCreated': {
      const { keyId, name, scopes, secretHash, organizationId } = event.data;
      return { keyId, name, scopes, secretHash, organizationId: organizationId ?? null, createdAt: event.recordedAt ?? '', revokedAt: null, lastUsedAt: null };
    }
    case 'ApiKeyRevoked':
      return state === null ? state : { ...state, revokedAt: state.revokedAt ?? event.data.at };
    case 'ApiKeyUsed':
      return state === null ? state : { ...state, lastUsedAt: event.data.at };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export const readApiKeyEvent = (event: RecordedEvent): ReadApiKeyEvent =>
  ({ type: event.type, data: event.data, recordedAt: event.recordedAt }) as ReadApiKeyEvent;

export const apiKeyFold: StreamFold<ApiKeyState, ReadApiKeyEvent> = { initialState: null, evolve: evolveApiKey, read: readApiKeyEvent };
