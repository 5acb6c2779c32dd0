import { Inject, Injectable } from '@nestjs/common';
import { READ_MODELS, type ReadModels } from '#read-models';

/**
 * Which organizations of a user require two-step sign-in, from this node's organization read model: read at
 * a sign-in (a member of one must pass or set up a second step) and before a factor is removed (the last one
 * stays). A requirement set a moment ago on another node applies once this node's model has it.
 */
@Injectable()
export class TwoStepPolicy {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  requiringOrganizations(userId: string): { id: string; name: string }[] {
    return this.readModels.organizations.organizationsRequiringTwoStep(userId);
  }

  requiredFor(userId: string): boolean {
    return this.requiringOrganizations(userId).length > 0;
  }
}
