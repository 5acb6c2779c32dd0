import { CommandBus } from '@nestjs/cqrs';
import type { Command } from 'commander';
import { z } from 'zod';
import { MEMBER_ROLES } from '#domain';
import type { Identity } from '#identity';
import { AddMemberCommand, IDENTITY, jsonSafe, organizationIdSchema, ProblemError } from '#api';
import { cliAction, parseInput } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

type Options = { email?: string; username?: string; role: string; json?: boolean };

const input = z.strictObject({ organizationId: organizationIdSchema, role: z.enum(MEMBER_ROLES) });

/**
 * `chorus org:member:add ID (--email E | --username U) [--role R]`: an existing user joins another organization.
 * An address without an account is refused, not reserved: the command line sends no invitation, so nobody would know.
 */
export function registerOrgMemberAddCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('org:member:add')
    .description('add an existing user to an organization, with a role (for a new user: user:create --org)')
    .argument('<id>', 'the organization id')
    .option('--email <email>', 'the e-mail address the user signs in with (case-insensitive)')
    .option('--username <username>', 'or the username they sign in with')
    .option('--role <role>', 'owner, admin, member or auditor', 'member')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, id: string, options: Options) => {
        if ((options.email === undefined) === (options.username === undefined)) {
          throw new ProblemError(
            400,
            'VALIDATION_FAILED',
            'The request is not valid',
            'org:member:add: give --email or --username, one of them',
          );
        }
        const { organizationId, role } = parseInput(
          input,
          { organizationId: id, role: options.role },
          'org:member:add',
        );
        const { directory } = context.app.get<Identity>(IDENTITY);
        const who = options.email ?? (options.username as string);
        const userId =
          options.email !== undefined
            ? await directory.findUserIdByEmail(options.email)
            : await directory.findUserIdByUsername(who);
        const profile = userId === undefined ? undefined : await directory.profile(userId);
        if (profile === undefined) {
          const create = `chorus user:create --email <email> --org ${organizationId} --role ${role}`;
          throw new ProblemError(
            404,
            'NOT_FOUND',
            'No such user',
            `No user signs in with ${who}: create them with \`${create}\`.`,
          );
        }
        const added = await context.app
          .get(CommandBus)
          .execute(
            new AddMemberCommand(
              organizationId,
              { email: profile.email, role, userId: profile.id },
              context.commandContext('org:member:add'),
            ),
          );
        return {
          json: { organizationId, userId: profile.id, email: profile.email, role, position: jsonSafe(added.position) },
          text: `${profile.email} is now ${role === 'admin' || role === 'owner' || role === 'auditor' ? `an ${role}` : 'a member'} of ${organizationId}.`,
        };
      }),
    );
}
