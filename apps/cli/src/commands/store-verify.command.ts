import type { Command } from 'commander';
import { configAction } from '../config-action.js';
import type { GetCliContext } from '../cli-context.js';
import { invalidInput } from '../store-tools/store-refusal.js';
import { ExitCode } from '../exit-codes.js';
import { compareLogs } from '../store-tools/compare-logs.js';
import { openConfiguredStore, openStoreAt } from '../store-tools/stores.js';
import { counted } from './projections-progress.js';

/** `chorus store:verify --against <source> [--json]`: exit 0 when the logs are equal, 1 naming the first difference. */
export function registerStoreVerifyCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('store:verify')
    .description("compare the configured store's log with another store's, event by event (exit 1 at a difference)")
    .option('--against <source>', 'a DATA_DIR path or a postgres:// URL: the store copied from')
    .option('--json', 'print the result as JSON')
    .action(
      configAction(getContext, async (config, options: { against?: string }) => {
        if (options.against === undefined)
          throw invalidInput('--against: name the store to compare with (a DATA_DIR path or a postgres:// URL)');
        const source = await openStoreAt(options.against);
        try {
          const target = await openConfiguredStore(config);
          try {
            const comparison = await compareLogs(source, target);
            if (!comparison.equal) {
              process.exitCode = ExitCode.refused;
              return {
                json: { equal: false, position: comparison.position.toString(), difference: comparison.difference },
                text: `The logs differ at position ${comparison.position}: ${comparison.difference} (${counted(comparison.events, 'event', 'events')} before it are equal).`,
              };
            }
            return {
              json: {
                equal: true,
                events: comparison.events,
                headPosition: comparison.headPosition?.toString() ?? null,
              },
              text: `The logs are equal: ${counted(comparison.events, 'event', 'events')} in ${source.name} and ${target.name}, up to position ${comparison.headPosition ?? 'none'}.`,
            };
          } finally {
            await target.close();
          }
        } finally {
          await source.close();
        }
      }),
    );
}
