import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../errors.js';
import { decideSsoDomainClaim, evolveSsoDomainClaim, SSO_DOMAIN_CLAIM_GRACE_MS } from './sso-domain-claim.js';

const domain = 'acme.example';
const claimedAt = Date.parse('2026-01-01T00:00:00Z');
const heldByOther = evolveSsoDomainClaim(null, {
  type: 'SsoDomainClaimed',
  data: { domain, organizationId: 'other' },
  recordedAt: new Date(claimedAt).toISOString(),
});
const request = (now: number, holderConfirms: boolean) => ({ domain, organizationId: 'acme', now, holderConfirms });

describe('an SSO domain claim', () => {
  it('is taken when nobody holds the domain, and changes nothing for its holder', () => {
    expect(decideSsoDomainClaim(null, request(claimedAt, false))).toEqual([
      { type: 'SsoDomainClaimed', data: { domain, organizationId: 'acme' } },
    ]);
    expect(decideSsoDomainClaim({ organizationId: 'acme', claimedAt }, request(claimedAt, false))).toEqual([]);
  });

  it("is refused while another organization's claim is confirmed, or young even unconfirmed", () => {
    const refusal = (now: number, confirms: boolean) => {
      try {
        decideSsoDomainClaim(heldByOther, request(now, confirms));
        return undefined;
      } catch (error) {
        return error instanceof DomainError ? error.code : error;
      }
    };
    expect(refusal(claimedAt + 10 * SSO_DOMAIN_CLAIM_GRACE_MS, true)).toBe('SSO_DOMAIN_TAKEN');
    expect(refusal(claimedAt + SSO_DOMAIN_CLAIM_GRACE_MS - 1, false)).toBe('SSO_DOMAIN_TAKEN');
    expect(refusal(claimedAt + SSO_DOMAIN_CLAIM_GRACE_MS, false)).toBeUndefined();
  });
});
