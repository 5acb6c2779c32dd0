import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';

export const API_KEY_SCOPES = [
  'organizations:read',
  'organizations:write',
  'audit:read',
  'entitlements:read',
  'usage:write',
  'webhooks:write',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(value);
}

export const apiKeyStreamPrefix = 'api-key-';
export const apiKeyStream = (keyId: string): string => `${apiKeyStreamPrefix}${keyId}`;

/** Only the secret's hash is stored. organizationId absent: not bound (older keys). */
export type ApiKeyCreated = {
  type: 'ApiKeyCreated';
  data: { keyId: string; name: string; scopes: ApiKeyScope[]; secretHash: string; organizationId?: string };
};
/** Refused at once on the node that revoked it, within the key cache's bound on every other. */
export type ApiKeyRevoked = { type: 'ApiKeyRevoked'; data: { keyId: string; at: string } };
/** At most once per `useGranularityMs`, so that it stays cheap. */
export type ApiKeyUsed = { type: 'ApiKeyUsed'; data: { keyId: string; at: string } };

export type ApiKeyEvent = ApiKeyCreated | ApiKeyRevoked | ApiKeyUsed;

export type ApiKey = {
  keyId: string;
  name: string;
  scopes: ApiKeyScope[];
  /** null: any the scopes allow. */
  organizationId: string | null;
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
};

export type ApiKeyState = ApiKey | null;

/** The store's recordedAt stands in for a creation time the event does not carry. */
export type RecordedApiKeyEvent = ApiKeyEvent & { recordedAt?: string };

export function evolveApiKey(state: ApiKeyState, event: RecordedApiKeyEvent): ApiKeyState {
  switch (event.type) {
    case 'ApiKeyCreated': {
      const { keyId, name, scopes, secretHash, organizationId } = event.data;
      return {
        keyId,
        name,
        scopes,
        secretHash,
        organizationId: organizationId ?? null,
        createdAt: event.recordedAt ?? '',
        revokedAt: null,
        lastUsedAt: null,
      };
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

/** A key id is 96 random bits, so a key there already is a bug, not a refusal. */
export function decideCreateApiKey(state: ApiKeyState, created: ApiKeyCreated['data']): ApiKeyEvent[] {
  if (state !== null) throw new Error(`API key id ${created.keyId} is already in use`);
  return [{ type: 'ApiKeyCreated', data: created }];
}

/** Undefined: no such key. */
export function decideRevokeApiKey(state: ApiKeyState, at: Date): ApiKeyEvent[] | undefined {
  if (state === null) return undefined;
  return state.revokedAt === null
    ? [{ type: 'ApiKeyRevoked', data: { keyId: state.keyId, at: at.toISOString() } }]
    : [];
}

export const isUseDue = (state: ApiKeyState, at: Date, useGranularityMs: number): state is ApiKey =>
  state !== null &&
  state.revokedAt === null &&
  (state.lastUsedAt === null || at.getTime() - Date.parse(state.lastUsedAt) >= useGranularityMs);

export function decideRecordApiKeyUse(state: ApiKeyState, at: Date, useGranularityMs: number): ApiKeyEvent[] {
  return isUseDue(state, at, useGranularityMs)
    ? [{ type: 'ApiKeyUsed', data: { keyId: state.keyId, at: at.toISOString() } }]
    : [];
}

export type ApiKeyCommand =
  | { type: 'CreateApiKey'; data: ApiKeyCreated['data'] }
  | { type: 'RevokeApiKey'; data: { keyId: string; at: Date } }
  | { type: 'RecordApiKeyUse'; data: { at: Date; useGranularityMs: number } };

export const apiKeyDecider: Decider<ApiKeyState, ApiKeyCommand, RecordedApiKeyEvent> = {
  streamOf: apiKeyStream,
  initialState: null,
  evolve: evolveApiKey,
  decide: (command, state) => {
    switch (command.type) {
      case 'CreateApiKey':
        return decideCreateApiKey(state, command.data);
      case 'RevokeApiKey': {
        const events = decideRevokeApiKey(state, command.data.at);
        if (events === undefined)
          throw new DomainError('NOT_FOUND', `No API key has the id ${command.data.keyId}.`, { entity: 'apiKey' });
        return events;
      }
      case 'RecordApiKeyUse':
        return decideRecordApiKeyUse(state, command.data.at, command.data.useGranularityMs);
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  },
  read: (stored) => ({ type: stored.type, data: stored.data, recordedAt: stored.recordedAt }) as RecordedApiKeyEvent,
};
