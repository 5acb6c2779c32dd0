import type { Command } from 'commander';
import { API_KEY_CACHE_MS, ApiKeys } from '#api';
import { cliAction } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

/** `chorus api-key:revoke ID [--json]`: the key is refused from now on, on every API node within API_KEY_CACHE_MS. */
export function registerApiKeyRevokeCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('api-key:revoke')
    .description(`revoke an API key: refused by every API node within ${API_KEY_CACHE_MS / 1000} s`)
    .argument('<id>', 'the key id (api-key:list), the 24 hexadecimal characters after chrs_')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context, keyId: string) => {
        const revoked = await context.app.get(ApiKeys).revoke(keyId, context.commandContext('api-key:revoke'));
        const bound = `every API node refuses it within ${API_KEY_CACHE_MS / 1000} s of ${revoked.revokedAt}`;
        return {
          json: { keyId: revoked.keyId, revokedAt: revoked.revokedAt, alreadyRevoked: revoked.alreadyRevoked },
          text: revoked.alreadyRevoked
            ? `API key ${revoked.keyId} was already revoked (${revoked.revokedAt}).`
            : `API key ${revoked.keyId} revoked: ${bound}.`,
        };
      }),
    );
}
