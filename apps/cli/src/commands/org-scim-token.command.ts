import type { Command } from 'commander';
import { organizationIdSchema, DirectoryTokens } from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

/** `chorus org:scim:token ID [--name N]`: a SCIM token for the organization's identity provider, printed once. */
export function registerOrgScimTokenCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:scim:token')
    .description("make a SCIM token for an organization's identity provider and print it once (enterprise plans)")
    .argument('<id>', 'the organization')
    .option('--name <name>', 'what the token is for, e.g. the provider', 'SCIM')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, id: string, options: { name: string }) => {
        const organizationId = parseInput(organizationIdSchema, id, '<id>');
        const name = options.name.trim();
        const created = await context.app
          .get(DirectoryTokens)
          .createToken(
            organizationId,
            name === '' ? 'SCIM' : name.slice(0, 100),
            context.commandContext('org:scim:token'),
          );
        return {
          json: { id: created.tokenId, name: created.name, createdAt: created.createdAt, token: created.token },
          text: [
            `SCIM token "${created.name}" (id ${created.tokenId}) for organization ${organizationId}.`,
            'Give the identity provider this token and the base URL <PUBLIC_URL>/scim/v2. Store it now: it is not shown again.',
            '',
            created.token,
          ].join('\n'),
        };
      }),
    );
}
