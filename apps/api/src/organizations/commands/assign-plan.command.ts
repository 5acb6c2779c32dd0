import { Command } from '@nestjs/cqrs';
import type { AssignPlan } from '#domain';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Assigns a plan of one line (PlanAssigned). */
export class AssignPlanCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly plan: AssignPlan['data'],
    readonly context: CommandContext,
  ) {
    super();
  }
}
