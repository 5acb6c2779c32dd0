// Verified SSO domains across organizations (the rule: libs/domain's sso-domain-claim.ts). A claim is taken when
// the domain's DNS record is found (sso-domain-verification.ts); the holder's confirmation is read from its own stream.
import { Inject, Injectable } from '@nestjs/common';
import { AppClock } from '../config/app-clock.js';
import { handleCommand, loadStream, type CommandContext } from '#application';
import { EVENT_STORE, WrongExpectedRevisionError, type EventStore } from '#event-store';
import { isVerifiedSsoDomain, ssoDomainClaimDecider, ssoDomainTaken } from '#domain';
import { Organizations } from '../organizations/organizations.service.js';

@Injectable()
export class SsoDomainClaims {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly organizations: Organizations,
    private readonly clock: AppClock,
  ) {}

  /** The organization whose SSO this domain (ASCII form) signs in through, if any: claimed and confirmed (verified). */
  async organizationOf(domain: string): Promise<string | undefined> {
    const { state: claim } = await loadStream(this.store, ssoDomainClaimDecider, domain);
    return claim !== null && (await this.confirms(claim.organizationId, domain)) ? claim.organizationId : undefined;
  }

  /** Claims each domain for the organization, or refuses (409 SSO_DOMAIN_TAKEN) a domain another one holds. */
  async claim(organizationId: string, domains: readonly string[], context: CommandContext): Promise<void> {
    for (const domain of domains) {
      try {
        // The holder's word first, then one decision on the claim it was asked about.
        const known = await loadStream(this.store, ssoDomainClaimDecider, domain);
        const claim = known.state;
        const holderConfirms =
          claim !== null &&
          claim.organizationId !== organizationId &&
          (await this.confirms(claim.organizationId, domain));
        const command = {
          type: 'ClaimSsoDomain',
          data: { domain, organizationId, now: this.clock.now().getTime(), holderConfirms },
        } as const;
        // A claim lost to a concurrent one is refused, not decided again: the winner's configuration is on its way.
        await handleCommand(this.store, ssoDomainClaimDecider, domain, command, context, { known, maxAttempts: 1 });
      } catch (error) {
        throw error instanceof WrongExpectedRevisionError ? ssoDomainTaken(domain) : error;
      }
    }
  }

  private async confirms(organizationId: string, domain: string): Promise<boolean> {
    const { state } = await this.organizations.load(organizationId);
    return state.exists && isVerifiedSsoDomain(state, domain);
  }
}
