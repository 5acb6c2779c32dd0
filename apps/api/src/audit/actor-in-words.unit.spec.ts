import { describe, expect, it } from '@jest/globals';
import { actorInWords, type ActorNames } from './actor-in-words.js';

const names: ActorNames = {
  memberEmail: (userId) => (userId === 'u-ann' ? 'ann@example.com' : undefined),
  nameOf: (actor) => ({ 'api-key:k1': 'ops', 'scim:0123456789abcdef01234567': 'Okta' })[actor],
};

describe('actorInWords', () => {
  it.each([
    ['user:u-ann', 'ann@example.com'],
    ['api-key:k1', 'API key “ops”'],
    ['billing', 'Billing'],
    ['cli', 'Command line'],
    ['system', 'System'],
    ['sso:acme', 'Single sign-on'],
    ['scim:0123456789abcdef01234567', 'Directory (SCIM), token “Okta”'],
    ['scim:a-revoked-and-forgotten-token', 'Directory (SCIM)'],
    ['join:acme.example', 'Joined by verified domain'],
  ])('%s is %s', (actor, words) => {
    expect(actorInWords(actor, names)).toBe(words);
  });

  it('says which user or key when the record has no name for them', () => {
    expect(actorInWords('user:u-gone', names)).toBe('User u-gone');
    expect(actorInWords('api-key:k9', names)).toBe('API key k9');
  });

  it('shows an actor of a kind it does not know as recorded', () => {
    expect(actorInWords('scheduler', names)).toBe('scheduler');
    expect(actorInWords('user:', names)).toBe('user:');
  });
});
