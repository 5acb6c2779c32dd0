// Verified SSO domains: an e-mail domain signs in through at most one organization's provider. Each
// domain has a claim stream `sso-domain-<ascii domain>` whose last SsoDomainClaimed names its
// organization; the store's expected revision makes two organizations' claims one after the other, on
// every node. A claim is taken when the domain's DNS record is found (sso-domain-verification.ts) and counts
// only while the organization's own stream confirms it (SSO on, the domain listed and verified): one left
// behind by a configuration that changed, was turned off, lost its record, or stopped halfway may then be
// taken, but not within a minute of being made (its verification may still be on its way).
import { Inject, Injectable } from '@nestjs/common';
import { IdentityClock } from '../auth/identity.provider.js';
import { eventMetadata, handleCommand, loadStream, type CommandContext, type StreamFold } from '#application';
import { EVENT_STORE, WrongExpectedRevisionError, type EventStore } from '#event-store';
import { isVerifiedSsoDomain } from '#domain';
import { Organizations } from '../organizations/organizations.js';
import { ProblemError } from '../http/problem-error.js';

export const ssoDomainStreamPrefix = 'sso-domain-';
const ssoDomainStream = (domain: string): string => `${ssoDomainStreamPrefix}${domain}`;

export type SsoDomainClaimed = { type: 'SsoDomainClaimed'; data: { domain: string; organizationId: string } };

type Claim = { organizationId: string; claimedAt: number } | null;

const claimFold: StreamFold<Claim, SsoDomainClaimed & { recordedAt?: string }> = {
  initialState: null,
  evolve: (_claim, event) => ({ organizationId: event.data.organizationId, claimedAt: Date.parse(event.recordedAt ?? '') || 0 }),
  read: (event) => ({ type: 'SsoDomainClaimed', data: event.data as SsoDomainClaimed['data'], recordedAt: event.recordedAt }),
};

/** A claim younger than this is never taken over, confirmed or not. */
const claimGraceMs = 60_000;

export const domainTaken = (domain: string): ProblemError =>
  new ProblemError(409, 'SSO_DOMAIN_TAKEN', 'The domain signs in through another organization', `${domain} already signs in through another organization's single sign-on.`, { domain });

@Injectable()
export class SsoDomainClaims {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly organizations: Organizations,
    private readonly clock: IdentityClock,
  ) {}

  /** The organization whose SSO this domain (ASCII form) signs in through, if any: claimed and confirmed (verified). */
  async organizationOf(domain: string): Promise<string | undefined> {
    const { state: claim } = await loadStream(this.store, ssoDomainStream(domain), claimFold);
    return claim !== null && (await this.confirms(claim.organizationId, domain)) ? claim.organizationId : undefined;
  }

  /** Claims each domain for the organization, or refuses (409 SSO_DOMAIN_TAKEN) a domain another one holds. */
  async claim(organizationId: string, domains: readonly string[], context: CommandContext): Promise<void> {
    for (const domain of domains) {
      try {
        await handleCommand(
          this.store,
          ssoDomainStream(domain),
          async (claim): Promise<SsoDomainClaimed[]> => {
            if (claim?.organizationId === organizationId) return [];
            if (claim !== null && (this.clock.now().getTime() - claim.claimedAt < claimGraceMs || (await this.confirms(claim.organizationId, domain)))) {
              throw domainTaken(domain);
            }
            return [{ type: 'SsoDomainClaimed', data: { domain, organizationId } }];
          },
          // A claim lost to a concurrent one is refused, not decided again: the winner's configuration is on its way.
          { ...claimFold, metadata: eventMetadata(context, 'ClaimSsoDomain'), maxAttempts: 1 },
        );
      } catch (error) {
        throw error instanceof WrongExpectedRevisionError ? domainTaken(domain) : error;
      }
    }
  }

  private async confirms(organizationId: string, domain: string): Promise<boolean> {
    const { state } = await this.organizations.load(organizationId);
    return state.exists && isVerifiedSsoDomain(state, domain);
  }
}
