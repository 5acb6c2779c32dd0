// Verified SSO domains: an e-mail domain signs in through at most one organization's provider. Each domain
// has a claim stream whose last SsoDomainClaimed names its organization; the store's expected revision puts
// two organizations' claims one after the other. A claim counts only while its organization's own stream
// confirms it (SSO on, the domain listed and verified); one left behind may be taken over, but not within a
// minute of being made (its verification may still be on its way).
import { DomainError } from '../errors.js';

export const ssoDomainStreamPrefix = 'sso-domain-';
/** `domain` in its ASCII form. */
export const ssoDomainStream = (domain: string): string => `${ssoDomainStreamPrefix}${domain}`;

export type SsoDomainClaimed = { type: 'SsoDomainClaimed'; data: { domain: string; organizationId: string } };

/** Who holds the domain, and since when (epoch ms of the store's record). */
export type SsoDomainClaim = { organizationId: string; claimedAt: number } | null;

/** A claim younger than this is never taken over, confirmed or not. */
export const SSO_DOMAIN_CLAIM_GRACE_MS = 60_000;

export const evolveSsoDomainClaim = (_claim: SsoDomainClaim, event: SsoDomainClaimed & { recordedAt?: string }): SsoDomainClaim => ({
  organizationId: event.data.organizationId,
  claimedAt: Date.parse(event.recordedAt ?? '') || 0,
});

export const ssoDomainTaken = (domain: string): DomainError =>
  new DomainError('SSO_DOMAIN_TAKEN', `${domain} already signs in through another organization's single sign-on.`, { domain });

/**
 * Claims the domain for the organization: nothing when it holds it already; refused (SSO_DOMAIN_TAKEN) while
 * another organization's claim is young or confirmed by that organization (`holderConfirms`, asked of its stream).
 */
export function decideSsoDomainClaim(
  claim: SsoDomainClaim,
  request: { domain: string; organizationId: string; now: number; holderConfirms: boolean },
): SsoDomainClaimed[] {
  const { domain, organizationId } = request;
  if (claim?.organizationId === organizationId) return [];
  if (claim !== null && (request.now - claim.claimedAt < SSO_DOMAIN_CLAIM_GRACE_MS || request.holderConfirms)) throw ssoDomainTaken(domain);
  return [{ type: 'SsoDomainClaimed', data: { domain, organizationId } }];
}
