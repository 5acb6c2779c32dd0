import type { Command } from 'commander';
import { KEY_CACHE_MS } from '#application';
import { jsonSafe, PersonalDataErasure, ProblemError } from '#api';
import { cliAction } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';
import { caughtUpReadModels } from '../read-models-caught-up.js';

/** `chorus user:erase <address|user id> --yes [--json]`: forgets a person for good (docs/privacy.md). */
export function registerUserEraseCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('user:erase')
    .description(
      `erase a person's personal data for good: memberships and sessions end, every node shows them erased within ${KEY_CACHE_MS / 1000} s`,
    )
    .argument('<person>', 'their e-mail address or user id')
    .option('--yes', 'confirm: this cannot be undone')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, person: string, options: { yes?: boolean }) => {
        if (options.yes !== true)
          throw new ProblemError(
            400,
            'VALIDATION_FAILED',
            'The request is not valid',
            'user:erase cannot be undone: add --yes to confirm.',
          );
        // The organizations the person is in are read from the read models: stale ones would leave a membership.
        await caughtUpReadModels(context);
        const erasure = context.app.get(PersonalDataErasure);
        const userId = await erasure.personOf(person);
        if (userId === undefined) throw new ProblemError(404, 'NOT_FOUND', 'Not found', 'No person has this address.');
        const erased = await erasure.erase(userId, context.commandContext('user:erase'));
        const organizations =
          erased.organizationIds.length === 0 ? 'no organization' : erased.organizationIds.join(', ');
        return {
          json: {
            userId: erased.userId,
            organizationIds: erased.organizationIds,
            position: erased.position === undefined ? null : jsonSafe(erased.position),
          },
          text: `Erased ${erased.userId}: their personal data reads as erased from now on (${organizations}); every node shows it within ${KEY_CACHE_MS / 1000} s.`,
        };
      }),
    );
}
