import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '../clock.js';
import { SecretBox } from './secret-box.js';
import { SsoStateSeal } from './sso-state.js';

const clock = new ManualClock('2030-01-01T09:00:00Z');
const seal = new SsoStateSeal(new SecretBox([{ id: 's', key: Buffer.alloc(32, 9) }], 'sso-state'), clock);

describe('SsoStateSeal', () => {
  it('gives fresh random state, nonce and PKCE verifier, none of them readable in the cookie', () => {
    const { checks, cookieValue } = seal.seal({ organizationId: 'acme', redirect: '/app' });
    expect(checks.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([checks.state, checks.nonce, checks.codeVerifier]).size).toBe(3);
    for (const value of [checks.state, checks.nonce, checks.codeVerifier, 'acme'])
      expect(cookieValue).not.toContain(value);
    expect(seal.open(cookieValue, checks.state)).toEqual(checks);
  });

  it("refuses another sign-on's state, no cookie, a tampered cookie, and a cookie over ten minutes old", () => {
    const first = seal.seal({ organizationId: 'acme', redirect: '/app' });
    const second = seal.seal({ organizationId: 'acme', redirect: '/app' });
    expect(seal.open(first.cookieValue, second.checks.state)).toBeUndefined();
    expect(seal.open(undefined, first.checks.state)).toBeUndefined();
    expect(seal.open(`${first.cookieValue.slice(0, -2)}AA`, first.checks.state)).toBeUndefined();
    expect(seal.open(first.cookieValue, '')).toBeUndefined();
    clock.advance(10 * 60_000);
    expect(seal.open(first.cookieValue, first.checks.state)).toBeUndefined();
  });
});
