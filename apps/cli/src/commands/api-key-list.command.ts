import type { Command } from 'commander';
import { ApiKeys, type ApiKeySummary } from '#api';
import { cliAction } from '../cli-action.js';
import type { GetCliContext } from '../cli-context.js';

const row = (cells: readonly string[]): string =>
  [
    cells[0]?.padEnd(24),
    cells[1]?.padEnd(20),
    cells[2]?.padEnd(40),
    cells[3]?.padEnd(20),
    cells[4]?.padEnd(24),
    cells[5]?.padEnd(24),
    cells[6],
  ]
    .join('  ')
    .trimEnd();

const cellsOf = (key: ApiKeySummary): string[] => [
  key.keyId,
  key.name,
  key.scopes.join(','),
  key.organizationId ?? '(any)',
  key.createdAt,
  key.revokedAt ?? '-',
  key.lastUsedAt ?? '-',
];

/** `chorus api-key:list [--json]`: every key ever issued, live or revoked, oldest first; never a secret. */
export function registerApiKeyListCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('api-key:list')
    .description('list API keys: id, name, scopes, organization, created, revoked, last used (to the hour)')
    .option('--json', 'print the result as JSON')
    .action(
      cliAction(getContext, async (context) => {
        const keys = await context.app.get(ApiKeys).list();
        return {
          json: { keys },
          text:
            keys.length === 0
              ? 'No API keys.'
              : [
                  row(['ID', 'NAME', 'SCOPES', 'ORGANIZATION', 'CREATED', 'REVOKED', 'LAST USED']),
                  ...keys.map((key) => row(cellsOf(key))),
                ].join('\n'),
        };
      }),
    );
}
