import { Inject, Injectable } from '@nestjs/common';
import { secondStepAwaited, type SecondStepAwaited } from '#domain';
import type { Identity } from '#identity';
import { READ_MODELS, type ReadModels } from '#read-models';
import { IDENTITY } from './identity.provider.js';

/** The organization an SSO sign-on signs into, as its stream has it. */
export type SigningInto = { organizationId: string; requiresTwoStep: boolean; trusted: boolean };

/** The second step's page (docs/console.md, Two-step sign-in), which goes on to `target` once passed. */
export const secondStepPage = (target: string): string => `/login/verify?redirect=${encodeURIComponent(target)}`;

/**
 * Which organizations of a user require two-step sign-in, from this node's organization read model: read at
 * a sign-in (a member of one must pass or set up a second step) and before a factor is removed (the last one
 * stays). A requirement set a moment ago on another node applies once this node's model has it.
 */
@Injectable()
export class TwoStepPolicy {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(IDENTITY) private readonly identity: Identity,
  ) {}

  requiringOrganizations(userId: string): { id: string; name: string }[] {
    return this.readModels.organizations.organizationsRequiringTwoStep(userId);
  }

  requiredFor(userId: string): boolean {
    return this.requiringOrganizations(userId).length > 0;
  }

  /**
   * What a sign-in of the user through Google or SSO must still pass, as a password sign-in would (the password
   * path asks the same rule itself). An SSO sign-on names the organization it signs into, as its own stream has
   * it: a member it added a moment ago (just in time) is not in this node's read model yet, and its requirement
   * holds all the same. `trusted`: that organization takes its provider's MFA for the second step; the
   * requirements of the person's other organizations still hold.
   */
  async awaitedAfter(userId: string, signingInto?: SigningInto): Promise<SecondStepAwaited | undefined> {
    const { state } = await this.identity.users.load(userId);
    if (state.status !== 'registered') return undefined;
    const trustedBy = signingInto?.trusted === true ? signingInto.organizationId : undefined;
    const requiredHere = signingInto !== undefined && signingInto.requiresTwoStep && !signingInto.trusted;
    const requiredElsewhere = this.requiringOrganizations(userId).some(({ id }) => id !== signingInto?.organizationId);
    return secondStepAwaited(state.secondFactors, requiredHere || requiredElsewhere, trustedBy !== undefined);
  }
}
