import type { Command } from 'commander';
import { keyFingerprint } from '#event-store';
import { CheckpointRefusal, HistoryCheckpoints, ProblemError } from '#api';
import { cliAction } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

/**
 * `chorus history:checkpoint [--new-key] [--json]`: verifies the chain from the latest checkpoint to the head, then
 * signs the head and keeps the checkpoint in the log (docs/history.md). `--new-key`: the latest checkpoint was signed
 * by a key that is lost or retired, and this node's replaces it; the change is recorded in the checkpoint.
 */
export function registerHistoryCheckpointCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('history:checkpoint')
    .description("sign a checkpoint of the log's chain now, once it is verified from the latest one")
    .option('--new-key', "this node's key replaces the one that signed the latest checkpoint (recorded in the log)")
    .option('--json', 'print the checkpoint as JSON')
    .action(
      cliAction(getContext, async (context, options: { newKey?: boolean }) => {
        const checkpoints = context.app.get(HistoryCheckpoints);
        try {
          const checkpoint = await checkpoints.sign('on-demand', {
            newKey: options.newKey === true,
            context: context.commandContext('history:checkpoint'),
          });
          const key = keyFingerprint(checkpoint.publicKey);
          const replaced =
            checkpoint.previousKey === undefined
              ? ''
              : ` It replaces the key ${keyFingerprint(checkpoint.previousKey)}.`;
          return {
            json: { ...checkpoint, key },
            text: `Signed a checkpoint of the log up to position ${checkpoint.position} (hash ${checkpoint.hash}) at ${checkpoint.time}, with the key ${key}.${replaced}`,
          };
        } catch (error) {
          if (!(error instanceof CheckpointRefusal)) throw error;
          throw new ProblemError(409, error.code, 'No checkpoint was signed', error.message);
        }
      }),
    );
}
