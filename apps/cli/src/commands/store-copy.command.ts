import type { Command } from 'commander';
import { configAction } from '../config-action.js';
import type { GetCliContext } from '../cli-context.js';
import { copyLog } from '../store-tools/copy-log.js';
import { openConfiguredStore, openStoreAt } from '../store-tools/stores.js';
import { counted } from './projections-progress.js';

/** `chorus store:copy --from <source> [--json]`: resumable; docs/operations.md gives the move it is part of. */
export function registerStoreCopyCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('store:copy')
    .description('copy another store into the configured one while the source serves; run again, it goes on')
    .requiredOption('--from <source>', 'a DATA_DIR path, a postgres:// URL or an EventStoreDB connection string')
    .option('--json', 'print the result as JSON')
    .action(
      configAction(getContext, async (config, options: { from: string }) => {
        const source = await openStoreAt(options.from);
        try {
          const target = await openConfiguredStore(config, { importing: true });
          try {
            const copied = await copyLog(source, target);
            return {
              json: {
                from: source.name,
                to: target.name,
                alreadyThere: copied.alreadyThere,
                copied: copied.copied,
                keys: copied.keys,
                erasures: copied.erasures,
                headPosition: copied.headPosition?.toString() ?? null,
              },
              text: `Copied ${counted(copied.copied, 'event', 'events')} from ${source.name} into ${target.name} (${counted(copied.alreadyThere, 'event was', 'events were')} there from an earlier run), with ${counted(copied.keys, 'key', 'keys')} and ${counted(copied.erasures, 'erasure', 'erasures')}; the log now reaches position ${copied.headPosition ?? 'none'}. Run it again to take what the source wrote since, then \`chorus store:verify --against\` it.`,
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
