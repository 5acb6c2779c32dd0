// An API key's own stream: its events, its state (the fold), and the decisions made on it.

/** What an API key may do (docs/api.md, API keys). */
export const API_KEY_SCOPES = ['organizations:read', 'organizations:write', 'audit:read', 'entitlements:read', 'usage:write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(value);
}

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
/** The key is refused from now on: at once on the node that revoked it, within the key cache's bound on every other. */
export type ApiKeyRevoked = { type: 'ApiKeyRevoked'; data: { keyId: string; at: string } };
/** The key was used; written at most once per `useGranularityMs`, so that it stays cheap. */
export type ApiKeyUsed = { type: 'ApiKeyUsed'; data: { keyId: string; at: string } };

export type ApiKeyEvent = ApiKeyCreated | ApiKeyRevoked | ApiKeyUsed;

export type ApiKey = {
  keyId: string;
  name: string;
  scopes: ApiKeyScope[];
  /** The one organization the key may reach; null: any the scopes allow. */
  organizationId: string | null;
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
  /** To the granularity of use recording; null: never used since it was made, or since uses were recorded. */
  lastUsedAt: string | null;
};

export type ApiKeyState = ApiKey | null;

/** An event of the key's stream with the instant the store recorded it (the creation's time). */
export type RecordedApiKeyEvent = ApiKeyEvent & { recordedAt?: string };

export function evolveApiKey(state: ApiKeyState, event: RecordedApiKeyEvent): ApiKeyState {
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

/** A new key's stream must be new: a key id is 96 random bits, so a key there already is a bug, not a refusal. */
export function decideCreateApiKey(state: ApiKeyState, created: ApiKeyCreated['data']): ApiKeyEvent[] {
  if (state !== null) throw new Error(`API key id ${created.keyId} is already in use`);
  return [{ type: 'ApiKeyCreated', data: created }];
}

/** Revoking is for good and idempotent: a revoked key stays revoked, at its first revocation's time. Undefined: no such key. */
export function decideRevokeApiKey(state: ApiKeyState, at: Date): ApiKeyEvent[] | undefined {
  if (state === null) return undefined;
  return state.revokedAt === null ? [{ type: 'ApiKeyRevoked', data: { keyId: state.keyId, at: at.toISOString() } }] : [];
}

/** A live key's use is recorded when its last recorded use is at least `useGranularityMs` old. */
export function decideRecordApiKeyUse(state: ApiKeyState, at: Date, useGranularityMs: number): ApiKeyEvent[] {
  const due = state !== null && state.revokedAt === null && (state.lastUsedAt === null || at.getTime() - Date.parse(state.lastUsedAt) >= useGranularityMs);
  return due ? [{ type: 'ApiKeyUsed', data: { keyId: state.keyId, at: at.toISOString() } }] : [];
}
