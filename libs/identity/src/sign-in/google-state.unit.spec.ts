import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '../clock.js';
import { deriveKey } from '../hashing.js';
import { GoogleStateSeal } from './google-state.js';

const key = deriveKey('a session secret of at least thirty-two characters', 'oauth-state');

describe('the Google sign-in state', () => {
  it('gives back the token and redirect to the browser that holds the cookie, for the state sent to Google', () => {
    const seal = new GoogleStateSeal(key, new ManualClock());
    const { nonce, cookieValue } = seal.seal({ token: 'tok-1', redirect: '/organizations' });
    expect(seal.open(cookieValue, nonce)).toEqual({ token: 'tok-1', redirect: '/organizations' });
  });

  it('refuses another state, a missing cookie, a forged cookie and an expired one', () => {
    const clock = new ManualClock();
    const seal = new GoogleStateSeal(key, clock);
    const { nonce, cookieValue } = seal.seal({ token: '', redirect: '/' });
    expect(seal.open(cookieValue, 'another-state')).toBeUndefined();
    expect(seal.open(undefined, nonce)).toBeUndefined();
    const forged = new GoogleStateSeal(
      deriveKey('another secret of at least thirty-two characters', 'oauth-state'),
      clock,
    ).seal({ token: '', redirect: '/' });
    expect(seal.open(forged.cookieValue, forged.nonce)).toBeUndefined();
    clock.advance(10 * 60_000);
    expect(seal.open(cookieValue, nonce)).toBeUndefined();
  });
});
