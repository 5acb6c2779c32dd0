import { CommandBus } from '@nestjs/cqrs';
import type { Command } from 'commander';
import { commandAnswer, CreateOrganizationCommand, createOrganizationRequest } from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

/** `chorus org:create --name N [--id ID]`: creates an organization, prints its id. */
export function registerOrgCreateCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:create')
    .description('create an organization and print its id')
    .requiredOption('--name <name>', 'the organization name')
    .option('--id <id>', 'its id: lower-case letters, digits and -, a new uuid when absent')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, options: { name: string; id?: string }) => {
        const organization = parseInput(createOrganizationRequest, { name: options.name, id: options.id });
        const result = await context.app.get(CommandBus).execute(new CreateOrganizationCommand(organization, context.commandContext('org:create')));
        return { json: commandAnswer(result), text: result.id };
      }),
    );
}
