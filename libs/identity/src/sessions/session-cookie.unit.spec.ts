import { describe, expect, it } from '@jest/globals';
import { deriveKey, sha256Hex } from '../hashing.js';
import { SessionCookies } from './session-cookie.js';

const cookies = new SessionCookies(deriveKey('a session secret of at least thirty-two characters', 'session-cookie'));

describe('session cookies', () => {
  it('name a new session id each time; the id is the SHA-256 of the secret, not the secret', () => {
    const first = cookies.issue();
    const second = cookies.issue();
    expect(first.sessionId).not.toBe(second.sessionId);
    expect(cookies.sessionIdOf(first.cookieValue)).toBe(first.sessionId);
    expect(first.sessionId).toBe(sha256Hex(first.cookieValue.split('.')[0] ?? ''));
    expect(first.cookieValue).not.toContain(first.sessionId);
  });

  it('refuse values not signed with our secret', () => {
    const { cookieValue } = cookies.issue();
    const [secret] = cookieValue.split('.');
    expect(cookies.sessionIdOf(`${secret}.forged`)).toBeUndefined();
    expect(cookies.sessionIdOf(secret)).toBeUndefined();
    expect(cookies.sessionIdOf(undefined)).toBeUndefined();
    const other = new SessionCookies(deriveKey('another secret of at least thirty-two characters', 'session-cookie'));
    expect(other.sessionIdOf(cookieValue)).toBeUndefined();
  });
});
