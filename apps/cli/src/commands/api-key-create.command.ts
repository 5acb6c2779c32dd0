import type { Command } from 'commander';
import { ApiKeys, jsonSafe } from '#api';
import { cliAction } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

/** `chorus api-key:create --name N --scopes a,b [--org ID]`: prints a new API key, the only time it is ever shown. */
export function registerApiKeyCreateCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('api-key:create')
    .description('create an API key and print it once')
    .requiredOption('--name <name>', 'what the key is for')
    .requiredOption('--scopes <scopes>', 'comma-separated: organizations:read, organizations:write, audit:read')
    .option('--org <id>', 'bind the key to this organization: refused on any other, and on calls about no organization')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, options: { name: string; scopes: string; org?: string }) => {
        const scopes = options.scopes
          .split(',')
          .map((scope) => scope.trim())
          .filter((scope) => scope !== '');
        const request = {
          name: options.name,
          scopes,
          ...(options.org === undefined ? {} : { organizationId: options.org }),
        };
        const created = await context.app.get(ApiKeys).create(request, context.commandContext('api-key:create'));
        return {
          json: {
            keyId: created.keyId,
            name: created.name,
            scopes: created.scopes,
            organizationId: created.organizationId,
            key: created.key,
            position: jsonSafe(created.position),
          },
          text: [
            `API key "${created.name}" (id ${created.keyId}) with scopes ${created.scopes.join(', ')}${created.organizationId === null ? '' : `, for organization ${created.organizationId} only`}.`,
            'Store it now: it is not shown again.',
            '',
            created.key,
          ].join('\n'),
        };
      }),
    );
}
