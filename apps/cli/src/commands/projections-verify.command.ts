import type { Command } from 'commander';
import { READ_MODELS, type ReadModels, type Verification } from '#read-models';
import { cliAction } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';
import { caughtUpReadModels } from '../read-models-caught-up.js';
import { counted, progressReporter } from './projections-progress.js';

/** Differences printed per projection; the JSON output carries all of them. */
const shownDifferences = 50;

/** '3 organizations, 5 memberships': the rows of each table, in the table's own words. */
const tableCounts = (verification: Verification, side: 'stored' | 'rebuilt'): string =>
  verification.tables.map((table) => counted(table[side], table.rowIs, table.rowsAre)).join(', ');

function report(verification: Verification): string {
  const checkpoint =
    verification.checkpoint === undefined ? 'before the first event' : `at position ${verification.checkpoint}`;
  const stored = tableCounts(verification, 'stored');
  if (verification.drift.length === 0) {
    return `${verification.projection}: no drift: the stored read model (${checkpoint}) holds the same rows as a rebuild from the events: ${stored}`;
  }
  const lines = verification.drift.flatMap((drift) =>
    drift.differences.map((difference) => `  ${drift.table}[${drift.key}] ${difference}`),
  );
  const more = lines.length > shownDifferences ? [`  ... and ${lines.length - shownDifferences} more`] : [];
  const rows =
    verification.drift.length === 1 ? '1 row differs' : `${counted(verification.drift.length, 'row', 'rows')} differ`;
  return [
    `${verification.projection}: DRIFT: ${rows} between the stored read model (${checkpoint}) and a rebuild from the events`,
    `  stored:  ${stored}`,
    `  rebuilt: ${tableCounts(verification, 'rebuilt')}`,
    ...lines.slice(0, shownDifferences),
    ...more,
  ].join('\n');
}

/** `chorus projections:verify [--json]`: rebuilds in memory, compares with the stored models, exit 1 on drift. */
export function registerProjectionsVerifyCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('projections:verify')
    .description('rebuild every read model in memory and report any difference from the stored one (exit 1 on drift)')
    .option('--json', 'print the result as JSON')
    .option('--as-is', 'compare the stored models at their checkpoints, without first bringing them up to the store')
    .action(
      cliAction(getContext, async (context, options: { json?: boolean; asIs?: boolean }) => {
        // The stored models are compared once they hold every event stored when the call began: right after
        // a write (another process's, or a server whose projector trails) a stale model is not drift.
        const readModels =
          options.asIs === true ? context.app.get<ReadModels>(READ_MODELS) : await caughtUpReadModels(context);
        const progress = progressReporter('verifying', options.json === true);
        const verifications = await readModels.verify({ onProgress: progress.update });
        progress.done();
        const drifted = verifications.some((verification) => verification.drift.length > 0);
        if (drifted) process.exitCode = ExitCode.refused;
        return {
          json: {
            drift: drifted,
            projections: verifications.map((verification) => ({
              ...verification,
              checkpoint: verification.checkpoint?.toString() ?? null,
            })),
          },
          text: verifications.map(report).join('\n'),
        };
      }),
    );
}
