import { describe, expect, it } from '@jest/globals';
import {
  decideCreateApiKey,
  decideRecordApiKeyUse,
  decideRevokeApiKey,
  evolveApiKey,
  type ApiKeyCreated,
  type ApiKeyEvent,
  type ApiKeyState,
} from './api-key.js';

const hour = 3_600_000;
const created: ApiKeyCreated['data'] = {
  keyId: 'a'.repeat(24),
  name: 'collector',
  scopes: ['organizations:read'],
  secretHash: 'hash',
};
const fold = (events: ApiKeyEvent[]): ApiKeyState =>
  events.reduce<ApiKeyState>(
    (state, event) => evolveApiKey(state, { ...event, recordedAt: '2026-01-01T00:00:00.000Z' }),
    null,
  );
const live = fold(decideCreateApiKey(null, created));

describe('an API key', () => {
  it('is created once, on a new stream, unbound unless an organization is given', () => {
    expect(live).toMatchObject({
      keyId: created.keyId,
      organizationId: null,
      revokedAt: null,
      lastUsedAt: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(() => decideCreateApiKey(live, created)).toThrow('already in use');
  });

  it('is revoked for good, at its first revocation', () => {
    const first = new Date('2026-02-01T00:00:00Z');
    const revoked = fold([...decideCreateApiKey(null, created), ...(decideRevokeApiKey(live, first) ?? [])]);
    expect(revoked?.revokedAt).toBe(first.toISOString());
    expect(decideRevokeApiKey(revoked, new Date('2026-03-01T00:00:00Z'))).toEqual([]);
    expect(decideRevokeApiKey(null, first)).toBeUndefined();
  });

  it('records a use at most once per granularity, and never for a revoked key', () => {
    const at = new Date('2026-02-01T10:00:00Z');
    const used = evolveApiKey(live, decideRecordApiKeyUse(live, at, hour)[0]!);
    expect(used?.lastUsedAt).toBe(at.toISOString());
    expect(decideRecordApiKeyUse(used, new Date(at.getTime() + hour - 1), hour)).toEqual([]);
    expect(decideRecordApiKeyUse(used, new Date(at.getTime() + hour), hour)).toHaveLength(1);
    const revoked = evolveApiKey(used, { type: 'ApiKeyRevoked', data: { keyId: created.keyId, at: at.toISOString() } });
    expect(decideRecordApiKeyUse(revoked, new Date(at.getTime() + 2 * hour), hour)).toEqual([]);
  });
});
