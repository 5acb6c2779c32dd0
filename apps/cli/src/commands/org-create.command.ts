import { randomUUID } from 'node:crypto';
import { CommandBus } from '@nestjs/cqrs';
import type { Command } from 'commander';
import { DomainError } from '#domain';
import { sameOrganizationName } from '#read-models';
import { commandAnswer, CreateOrganizationCommand, createOrganizationRequest, Organizations, ProblemError } from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { CliContext, GetCliContext } from '../cli-context.js';
import { organizationSlug, slugAlternatives } from '../organization-slug.js';
import { caughtUpReadModels } from '../read-models-caught-up.js';

type Options = { name: string; id?: string; allowDuplicateName?: boolean };

async function freeAlternative(organizations: Organizations, slug: string): Promise<string> {
  for (const candidate of slugAlternatives(slug)) {
    if (!(await organizations.load(candidate)).state.exists) return candidate;
  }
  throw new Error('unreachable');
}

/** `org:create --name Acme` twice is far more often a slip than a second customer called Acme. */
async function refuseSameName(context: CliContext, name: string, id: string): Promise<void> {
  const namesakes = (await caughtUpReadModels(context)).organizations
    .named(name)
    .filter((namesake) => namesake.id !== id);
  if (namesakes.length === 0) return;
  const ids = namesakes.map((namesake) => namesake.id);
  throw new ProblemError(
    409,
    'DUPLICATE',
    'An organization has that name',
    `${ids.length === 1 ? 'An organization' : `${ids.length} organizations`} named "${namesakes[0]?.name ?? name}" already exist${ids.length === 1 ? 's' : ''}: ${ids.join(', ')}. ` +
      `Use ${ids.length === 1 ? 'it' : 'one of them'} (chorus org:state ${ids[0] ?? ''}), or add --allow-duplicate-name to create another organization with this name.`,
    { organizations: namesakes },
  );
}

async function slugTaken(organizations: Organizations, id: string, name: string): Promise<ProblemError> {
  const existing = (await organizations.load(id)).state;
  const existingName = existing.exists ? existing.name : name;
  const suggestedId = await freeAlternative(organizations, id);
  const options = `--id ${suggestedId}${sameOrganizationName(existingName, name) ? ' --allow-duplicate-name' : ''}`;
  return new ProblemError(
    409,
    'ALREADY_EXISTS',
    'It already exists',
    `Organization ${id} already exists (named "${existingName}"). To create another one, give it an id of its own: ${options}.`,
    { id, name: existingName, suggestedId },
  );
}

/** Without --id the id is the name's slug (`Acme Corp` -> `acme-corp`), so the next command can name it. */
export function registerOrgCreateCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:create')
    .description('create an organization and print its id')
    .requiredOption('--name <name>', 'the organization name')
    .option(
      '--id <id>',
      'its id: lower-case letters, digits and -; by default the slug of the name (Acme Corp: acme-corp)',
    )
    .option('--allow-duplicate-name', 'create it even when another organization has the same name')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, options: Options) => {
        const request = parseInput(createOrganizationRequest, { name: options.name, id: options.id });
        const derived = request.id === undefined;
        const id = request.id ?? organizationSlug(request.name) ?? randomUUID();
        const allowDuplicateName = options.allowDuplicateName === true;
        if (!allowDuplicateName) await refuseSameName(context, request.name, id);
        try {
          const result = await context.app
            .get(CommandBus)
            .execute(new CreateOrganizationCommand({ id, name: request.name }, context.commandContext('org:create')));
          return { json: commandAnswer(result), text: result.id };
        } catch (error) {
          // The domain's refusal names the id; one the user did not choose needs the way out as well.
          if (derived && error instanceof DomainError && error.code === 'ALREADY_EXISTS') {
            throw await slugTaken(context.app.get(Organizations), id, request.name);
          }
          throw error;
        }
      }),
    );
}
