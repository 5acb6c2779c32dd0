import type { Command } from 'commander';
import { loadHistorySigningKey } from '#event-store';
import { configAction } from '../config-action.js';
import type { GetCliContext } from '../cli-context.js';

/**
 * `chorus history:public-key [--json]`: the PEM `GET /history/public-key` serves, for an auditor's
 * `history:verify --public-key` (generated into DATA_DIR first, as the server would, when HISTORY_SIGNING_KEY is unset).
 */
export function registerHistoryPublicKeyCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('history:public-key')
    .description("print the public key (PEM) that checks the history's signed checkpoints")
    .option('--json', 'print the key and its fingerprint as JSON')
    .action(
      configAction(getContext, async (config) => {
        const key = loadHistorySigningKey({ configured: config.historySigningKey, dataDir: config.dataDir });
        return Promise.resolve({
          json: { publicKey: key.publicPem, fingerprint: key.fingerprint },
          text: key.publicPem.trimEnd(),
        });
      }),
    );
}
