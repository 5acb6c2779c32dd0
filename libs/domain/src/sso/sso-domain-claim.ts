// An e-mail domain signs in through at most one organization. A claim its organization's stream no longer
// confirms may be taken over, but not while young (its verification may still be on its way).
import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';

export const ssoDomainStreamPrefix = 'sso-domain-';
export const ssoDomainStream = (domain: string): string => `${ssoDomainStreamPrefix}${domain}`;

export type SsoDomainClaimed = { type: 'SsoDomainClaimed'; data: { domain: string; organizationId: string } };

/** claimedAt: epoch ms of the store's record. */
export type SsoDomainClaim = { organizationId: string; claimedAt: number } | null;

export const SSO_DOMAIN_CLAIM_GRACE_MS = 60_000;

export const evolveSsoDomainClaim = (
  _claim: SsoDomainClaim,
  event: SsoDomainClaimed & { recordedAt?: string },
): SsoDomainClaim => ({
  organizationId: event.data.organizationId,
  claimedAt: Date.parse(event.recordedAt ?? '') || 0,
});

export const ssoDomainTaken = (domain: string): DomainError =>
  new DomainError('SSO_DOMAIN_TAKEN', `${domain} already signs in through another organization's single sign-on.`, {
    domain,
  });

export function decideSsoDomainClaim(
  claim: SsoDomainClaim,
  request: { domain: string; organizationId: string; now: number; holderConfirms: boolean },
): SsoDomainClaimed[] {
  const { domain, organizationId } = request;
  if (claim?.organizationId === organizationId) return [];
  if (claim !== null && (request.now - claim.claimedAt < SSO_DOMAIN_CLAIM_GRACE_MS || request.holderConfirms))
    throw ssoDomainTaken(domain);
  return [{ type: 'SsoDomainClaimed', data: { domain, organizationId } }];
}

export type ClaimSsoDomain = {
  type: 'ClaimSsoDomain';
  data: { domain: string; organizationId: string; now: number; holderConfirms: boolean };
};

export const ssoDomainClaimDecider: Decider<
  SsoDomainClaim,
  ClaimSsoDomain,
  SsoDomainClaimed & { recordedAt?: string }
> = {
  streamOf: ssoDomainStream,
  initialState: null,
  evolve: evolveSsoDomainClaim,
  decide: (command, claim) => decideSsoDomainClaim(claim, command.data),
  read: (stored) => ({
    type: 'SsoDomainClaimed',
    data: stored.data as SsoDomainClaimed['data'],
    recordedAt: stored.recordedAt,
  }),
};
