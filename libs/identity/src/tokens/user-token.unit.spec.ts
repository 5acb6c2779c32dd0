import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { issueUserToken, readUserToken } from './user-token.js';

describe('link tokens (reset, invitation)', () => {
  it('carry the user id and 256 random bits; only the hash is kept', () => {
    const userId = randomUUID();
    const first = issueUserToken(userId);
    const second = issueUserToken(userId);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(first.token).not.toBe(second.token);
    expect(readUserToken(first.token)).toEqual({ userId, tokenHash: first.tokenHash });
    expect(first.tokenHash).not.toContain(first.token);
  });

  it('are refused when malformed', () => {
    expect(readUserToken('short')).toBeUndefined();
    expect(readUserToken(`${'a'.repeat(63)}/`)).toBeUndefined();
  });
});
