// Verified SSO domains across organizations (the rule: libs/domain's sso-domain-claim.ts). A claim is taken when
// the domain's DNS record is found (sso-domain-verification.ts); the holder's confirmation is read from its own stream.
import { Inject, Injectable } from '@nestjs/common';
import { AppClock } from '../config/app-clock.js';
import { loadStream, type DecisionReads, type StreamChange } from '#application';
import { EVENT_STORE, type EventStore } from '#event-store';
import { isVerifiedSsoDomain, ssoDomainClaimDecider, type OrganizationState } from '#domain';
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

  /**
   * The domain's claim for the organization, in the decision that records it verified: the claim and the verification
   * are one append, so a holder's claim is always confirmed by its own stream (but on EventStoreDB, part by part).
   * A domain another organization holds is refused (409 SSO_DOMAIN_TAKEN), also when it won a race for it.
   */
  async claimIn(reads: DecisionReads, organizationId: string, domain: string): Promise<StreamChange> {
    const claim = await reads.stream(ssoDomainClaimDecider, domain);
    const holder = claim.state?.organizationId;
    const holderState =
      holder === undefined || holder === organizationId ? undefined : await this.stateOf(reads, holder);
    const holderConfirms = holderState?.exists === true && isVerifiedSsoDomain(holderState, domain);
    return claim.decide({
      type: 'ClaimSsoDomain',
      data: { domain, organizationId, now: this.clock.now().getTime(), holderConfirms },
    });
  }

  private async confirms(organizationId: string, domain: string): Promise<boolean> {
    const { state } = await this.organizations.load(organizationId);
    return state.exists && isVerifiedSsoDomain(state, domain);
  }

  private async stateOf(reads: DecisionReads, organizationId: string): Promise<OrganizationState> {
    return (await reads.stream(this.organizations.decider, organizationId)).state;
  }
}
