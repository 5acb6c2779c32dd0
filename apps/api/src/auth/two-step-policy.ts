import { Inject, Injectable } from '@nestjs/common';
import { secondStepAwaited, type SecondStepAwaited } from '#domain';
import type { Identity } from '#identity';
import { READ_MODELS, type ReadModels } from '#read-models';
import { IDENTITY } from './identity.provider.js';

export type SigningInto = { organizationId: string; requiresTwoStep: boolean; trusted: boolean };

/** docs/console.md, Two-step sign-in. */
export const secondStepPage = (target: string): string => `/login/verify?redirect=${encodeURIComponent(target)}`;

/** From this node's read model: a requirement set a moment ago on another node applies once this node's model has it. */
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

  /** An SSO sign-on names its organization as its stream has it: a member added just in time is not in the read model yet. */
  async awaitedAfter(userId: string, signingInto?: SigningInto): Promise<SecondStepAwaited | undefined> {
    const { state } = await this.identity.users.load(userId);
    if (state.status !== 'registered') return undefined;
    const trustedBy = signingInto?.trusted === true ? signingInto.organizationId : undefined;
    const requiredHere = signingInto !== undefined && signingInto.requiresTwoStep && !signingInto.trusted;
    const requiredElsewhere = this.requiringOrganizations(userId).some(({ id }) => id !== signingInto?.organizationId);
    return secondStepAwaited(state.secondFactors, requiredHere || requiredElsewhere, trustedBy !== undefined);
  }
}
