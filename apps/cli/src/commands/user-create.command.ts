import { CommandBus } from '@nestjs/cqrs';
import type { Command } from 'commander';
import { z } from 'zod';
import { MEMBER_ROLES } from '#domain';
import type { Identity } from '#identity';
import { AddMemberCommand, IDENTITY, jsonSafe, organizationIdSchema, ProblemError } from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';
import { readNewPassword } from '../secret-input.js';

type Options = { email: string; password?: string; username?: string; org?: string; role?: string };

const membershipInput = z.strictObject({ organizationId: organizationIdSchema, role: z.enum(MEMBER_ROLES) });

/**
 * `chorus user:create --email E [--password P] [--username U] [--org ID --role R]`: a user who can sign in.
 * Without --password (which shell history and `ps` keep) the password is typed at a prompt that does not
 * echo it, twice, or read from the first line of standard input when that is not a terminal.
 */
export function registerUserCreateCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('user:create')
    .description('create a user who can sign in, optionally as a member of an organization')
    .requiredOption('--email <email>', 'the e-mail address they sign in with (case-insensitive)')
    .option(
      '--password <password>',
      'at least 8 characters, not a common password; better left out: typed at a prompt (no echo), or the first line of standard input',
    )
    .option('--username <username>', 'a username they may sign in with instead')
    .option('--org <id>', 'an organization to add them to')
    .option('--role <role>', 'their role there: owner, admin, member or auditor (with --org)')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, options: Options) => {
        if (options.role !== undefined && options.org === undefined) {
          throw new ProblemError(
            400,
            'VALIDATION_FAILED',
            'The request is not valid',
            'user:create: --role needs --org',
          );
        }
        const membership =
          options.org === undefined
            ? undefined
            : parseInput(
                membershipInput,
                { organizationId: options.org, role: options.role ?? 'member' },
                'user:create',
              );
        const commandContext = context.commandContext('user:create');

        const identity = context.app.get<Identity>(IDENTITY);
        const password = options.password ?? (await readNewPassword(options.email));
        const newUser = {
          email: options.email,
          password,
          ...(options.username === undefined ? {} : { username: options.username }),
        };
        const register = () => identity.registration.register(newUser, commandContext);
        if (membership === undefined) {
          const { userId, email } = await register();
          return { json: { userId, email }, text: userId };
        }

        // The organization decides first (plan, users limit), so a refusal leaves no user behind. The
        // member gets the id of the address (reserved now when new), and registering takes that id.
        const { email } = await identity.registration.check(newUser);
        const addMember = new AddMemberCommand(
          membership.organizationId,
          { email, role: membership.role },
          commandContext,
        );
        const added = await context.app.get(CommandBus).execute(addMember);
        const { userId } = await register();
        return {
          json: {
            userId,
            email,
            organizationId: membership.organizationId,
            role: membership.role,
            position: jsonSafe(added.position),
          },
          text: `${userId} (${membership.role} of ${membership.organizationId})`,
        };
      }),
    );
}
