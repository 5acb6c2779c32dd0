import type { Command } from 'commander';
import { configAction } from '../config-action.js';
import type { GetCliContext } from '../cli-context.js';
import { chainLog, chainOf } from '../store-tools/chain-log.js';
import { invalidInput } from '../store-tools/store-refusal.js';
import { openConfiguredStore } from '../store-tools/stores.js';
import { counted } from './projections-progress.js';

/**
 * `chorus store:chain --yes [--json]`: gives the events of a store written before the chain their hashes, in log
 * order (docs/history.md). Servers may go on appending: their events join the chain once it reaches the head.
 */
export function registerStoreChainCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('store:chain')
    .description('chain the events a Chorus before the chain wrote, so that store:verify can prove them')
    .option('--yes', 'confirm: the events are given their hashes (their bytes are not changed)')
    .option('--json', 'print the result as JSON')
    .action(
      configAction(getContext, async (config, options: { yes?: boolean }) => {
        if (options.yes !== true)
          throw invalidInput('store:chain gives every event written before the chain its hash: add --yes');
        const store = await openConfiguredStore(config);
        try {
          const { chained, lastPosition } = await chainLog(chainOf(store));
          return {
            json: { chained, headPosition: lastPosition?.toString() ?? null },
            text:
              chained === 0
                ? `Every event of ${store.name} was chained already${lastPosition === undefined ? ' (it has none)' : `, up to position ${lastPosition}`}.`
                : `Chained ${counted(chained, 'event', 'events')} of ${store.name}, in log order up to position ${lastPosition}: chorus store:verify now proves them.`,
          };
        } finally {
          await store.close();
        }
      }),
    );
}
