import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { AssignPlanCommand } from './assign-plan.command.js';

@CommandHandler(AssignPlanCommand)
export class AssignPlanHandler implements ICommandHandler<AssignPlanCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, plan, context }: AssignPlanCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'AssignPlan', data: plan }, context);
  }
}
