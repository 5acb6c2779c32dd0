import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { Command } from 'commander';
import {
  assignPlanRequest,
  ChangeOrganizationCommand,
  commandAnswer,
  GetOrganizationStateQuery,
  organizationIdSchema,
} from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

/**
 * `chorus org:plan ID --line L --plan P [--service-level S]`: assigns a plan; warns when a Chorus plan waits for Chorus
 * to be turned on.
 */
export function registerOrgPlanCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:plan')
    .description('assign a plan to an organization')
    .argument('<id>', 'the organization id')
    .requiredOption('--line <line>', 'classic or chorus')
    .requiredOption(
      '--plan <plan>',
      'essential, professional, enterprise (classic); light, solo, teams, enterprise (chorus)',
    )
    .option('--service-level <level>', 'standard, assisted or turnkey')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(
        getContext,
        async (context, id: string, options: { line: string; plan: string; serviceLevel?: string }) => {
          const organizationId = parseInput(organizationIdSchema, id, '<id>');
          const plan = parseInput(assignPlanRequest, {
            line: options.line,
            plan: options.plan,
            serviceLevel: options.serviceLevel,
          });
          const result = await context.app
            .get(CommandBus)
            .execute(
              new ChangeOrganizationCommand(
                organizationId,
                { type: 'AssignPlan', data: plan },
                context.commandContext('org:plan'),
              ),
            );
          const serviceLevel = plan.serviceLevel === undefined ? '' : `, service level ${plan.serviceLevel}`;
          // Assigned, but not in effect: the console would otherwise show a plan that does nothing, with nobody told
          // why.
          if (plan.line === 'chorus') {
            const { view } = await context.app
              .get(QueryBus)
              .execute(new GetOrganizationStateQuery(organizationId, { kind: 'latest' }));
            if (!view.chorus) {
              const governing =
                view.governingPlan === null
                  ? 'no plan'
                  : `the ${view.governingPlan.line} plan ${view.governingPlan.plan}`;
              const warning = `Chorus is off for ${organizationId}, so its ${plan.plan} plan is not in effect (limits come from ${governing}).`;
              process.stderr.write(
                `chorus: warning: ${warning} Turn it on: chorus org:chorus ${organizationId} --on\n`,
              );
            }
          }
          return {
            json: commandAnswer(result),
            text: `Organization ${result.id} is on the ${plan.line} plan ${plan.plan}${serviceLevel} (revision ${result.revision}, position ${result.position}).`,
          };
        },
      ),
    );
}
