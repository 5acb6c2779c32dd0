import { describe, expect, it } from '@jest/globals';
import { deriveKey } from '../hashing.js';
import { XsrfTokens } from './xsrf-tokens.js';

const tokens = new XsrfTokens(deriveKey('a session secret of at least thirty-two characters', 'xsrf'));
const session = { kind: 'session', id: 'session-a' } as const;

describe('signed double-submit XSRF tokens', () => {
  it('accept the same token in cookie and header, signed for this session', () => {
    const token = tokens.issue(session);
    expect(tokens.verify(session, token, token)).toBe(true);
  });

  it('refuse a missing or different header', () => {
    const token = tokens.issue(session);
    expect(tokens.verify(session, token, undefined)).toBe(false);
    expect(tokens.verify(session, token, tokens.issue(session))).toBe(false);
  });

  it('refuse a token of another session, or of the pre-session with the same id', () => {
    const other = tokens.issue({ kind: 'session', id: 'session-b' });
    expect(tokens.verify(session, other, other)).toBe(false);
    const preSession = tokens.issue({ kind: 'pre-session', id: 'session-a' });
    expect(tokens.verify(session, preSession, preSession)).toBe(false);
  });

  it('refuse a token planted by someone who does not know the secret', () => {
    const forged = new XsrfTokens(deriveKey('another secret of at least thirty-two characters', 'xsrf')).issue(session);
    expect(tokens.verify(session, forged, forged)).toBe(false);
    expect(tokens.verify(session, 'nonce.mac', 'nonce.mac')).toBe(false);
  });
});
