import type { Command } from 'commander';
import { PersonalDataErasure, PersonalDataExport, ProblemError } from '#api';
import { cliAction } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

/**
 * `chorus user:export <address|user id> [--json]`: what an operator sends a person who asks for their data
 * (docs/privacy.md).
 */
export function registerUserExportCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('user:export')
    .description('print every fact Chorus holds about a person, as JSON (their access request), never a secret')
    .argument('<person>', 'their e-mail address or user id')
    // The copy is JSON either way; --json, as on every other command, also makes a failure the problem document.
    .option('--json', 'print the result as JSON, and a failure as the problem document')
    .action(
      cliAction(getContext, async (context, person: string) => {
        const userId = await context.app.get(PersonalDataErasure).personOf(person);
        const copy = userId === undefined ? undefined : await context.app.get(PersonalDataExport).of(userId);
        if (copy === undefined)
          throw new ProblemError(404, 'NOT_FOUND', 'Not found', 'No account has this address or id.');
        return { json: copy, text: JSON.stringify(copy, null, 2) };
      }),
    );
}
