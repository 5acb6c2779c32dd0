import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { issueResetToken, readResetToken } from './reset-token.js';

describe('reset tokens', () => {
  it('carry the user id and 256 random bits; only the hash is kept', () => {
    const userId = randomUUID();
    const first = issueResetToken(userId);
    const second = issueResetToken(userId);
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(first.token).not.toBe(second.token);
    expect(readResetToken(first.token)).toEqual({ userId, tokenHash: first.tokenHash });
    expect(first.tokenHash).not.toContain(first.token);
  });

  it('are refused when malformed', () => {
    expect(readResetToken('short')).toBeUndefined();
    expect(readResetToken(`${'a'.repeat(63)}/`)).toBeUndefined();
  });
});
