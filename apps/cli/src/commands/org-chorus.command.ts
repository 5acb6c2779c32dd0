import { CommandBus } from '@nestjs/cqrs';
import type { Command } from 'commander';
import type { OrganizationCommand } from '#domain';
import { ChangeOrganizationCommand, chorusRequest, commandAnswer, organizationIdSchema, ProblemError } from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

type ChorusOptions = { on?: boolean; off?: boolean; parallelUse?: boolean };

/**
 * `chorus org:chorus ID --on [--parallel-use] | --off`: turns the Chorus line on or off (PUT
 * /organizations/:id/chorus).
 * A Chorus plan governs the limits only while the line is on.
 */
export function registerOrgChorusCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:chorus')
    .description("turn an organization's Chorus line on or off (its Chorus plan applies only while it is on)")
    .argument('<id>', 'the organization id')
    .option('--on', 'turn Chorus on')
    .option('--off', 'turn Chorus off')
    .option(
      '--parallel-use',
      'with --on: Chorus runs alongside Classic and notifies only members marked as Chorus users',
    )
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, id: string, options: ChorusOptions) => {
        const organizationId = parseInput(organizationIdSchema, id, '<id>');
        if ((options.on === true) === (options.off === true)) {
          throw new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', 'give --on or --off');
        }
        const request = parseInput(chorusRequest, {
          enabled: options.on === true,
          ...(options.parallelUse === true ? { parallelUse: true } : {}),
        });
        const change: OrganizationCommand = request.enabled
          ? {
              type: 'EnableChorus',
              data: request.parallelUse === undefined ? {} : { parallelUse: request.parallelUse },
            }
          : { type: 'DisableChorus', data: {} };
        const result = await context.app
          .get(CommandBus)
          .execute(new ChangeOrganizationCommand(organizationId, change, context.commandContext('org:chorus')));
        const state = request.enabled ? `on${request.parallelUse === true ? ', alongside Classic,' : ''}` : 'off';
        return {
          json: commandAnswer(result),
          text: `Chorus is ${state} for ${result.id} (revision ${result.revision}, position ${result.position}).`,
        };
      }),
    );
}
