import { Inject, Injectable, Optional } from '@nestjs/common';
import { secondStepAwaited, type SecondStepAwaited } from '#domain';
import type { Identity } from '#identity';
import { READ_MODELS, type ReadModels } from '#read-models';
import { IDENTITY } from './identity.provider.js';
import { SIGN_IN_JOINS, type SignInJoins } from './sign-in-joins.js';

export type SigningInto = { organizationId: string; requiresTwoStep: boolean; trusted: boolean };

/** docs/console.md, Two-step sign-in. */
export const secondStepPage = (target: string): string => `/login/verify?redirect=${encodeURIComponent(target)}`;

/**
 * From this node's read model: a requirement set a moment ago on another node applies once this node's model has it.
 */
@Injectable()
export class TwoStepPolicy {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(IDENTITY) private readonly identity: Identity,
    @Optional() @Inject(SIGN_IN_JOINS) private readonly joins?: SignInJoins,
  ) {}

  /** Of the person's memberships: what a signed-in person's own changes (removing a last factor) answer to. */
  requiringOrganizations(userId: string): { id: string; name: string }[] {
    return this.readModels.organizations.organizationsRequiringTwoStep(userId);
  }

  requiredFor(userId: string): boolean {
    return this.requiringOrganizations(userId).length > 0;
  }

  /**
   * At a sign-in: the memberships' requirements, and the one of the organization the sign-in is about to make the
   * person
   * a member of by their address (joining by verified domain), which they join only once past the second step.
   */
  async requiringAtSignIn(userId: string): Promise<{ id: string; name: string }[]> {
    const requiring = this.requiringOrganizations(userId);
    const joining = await this.joins?.wouldJoin(userId);
    if (joining === undefined || !joining.requiresTwoStep || requiring.some(({ id }) => id === joining.organizationId))
      return requiring;
    return [...requiring, { id: joining.organizationId, name: joining.name }];
  }

  async requiredAtSignIn(userId: string): Promise<boolean> {
    return (await this.requiringAtSignIn(userId)).length > 0;
  }

  /**
   * An SSO sign-on names its organization as its stream has it: a member added just in time is not in the read model
   * yet.
   */
  async awaitedAfter(userId: string, signingInto?: SigningInto): Promise<SecondStepAwaited | undefined> {
    const { state } = await this.identity.users.load(userId);
    if (state.status !== 'registered') return undefined;
    const trustedBy = signingInto?.trusted === true ? signingInto.organizationId : undefined;
    const requiredHere = signingInto !== undefined && signingInto.requiresTwoStep && !signingInto.trusted;
    const requiredElsewhere = (await this.requiringAtSignIn(userId)).some(
      ({ id }) => id !== signingInto?.organizationId,
    );
    return secondStepAwaited(state.secondFactors, requiredHere || requiredElsewhere, trustedBy !== undefined);
  }
}
