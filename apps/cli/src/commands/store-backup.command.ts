import type { Command } from 'commander';
import { configAction } from '../config-action.js';
import type { GetCliContext } from '../cli-context.js';
import { invalidInput } from '../store-tools/store-refusal.js';
import { pruneBackups, takeBackup } from '../store-tools/backup.js';
import { counted } from './projections-progress.js';

type Options = { to?: string; prune?: boolean; keepDays?: string };

/** `chorus store:backup [--to DIR] [--json]`, and `--prune --keep-days N` (docs/operations.md, Backups). */
export function registerStoreBackupCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('store:backup')
    .description('take a backup of the store while servers run: a new folder in BACKUP_DIR (or --to), manifest last')
    .option('--to <dir>', 'the folder that holds the backups (default: BACKUP_DIR)')
    .option('--prune', 'delete the backups older than --keep-days instead (the newest is always kept)')
    .option('--keep-days <n>', 'with --prune: how many days of backups to keep')
    .option('--json', 'print the result as JSON')
    .action(
      configAction(getContext, async (config, options: Options) => {
        const to = options.to ?? config.backupDir;
        if (to === undefined) throw invalidInput('--to: name the folder that holds the backups, or set BACKUP_DIR');
        if (options.prune === true) {
          const days = Number(options.keepDays);
          if (options.keepDays === undefined || !Number.isInteger(days) || days < 0)
            throw invalidInput('--keep-days: a whole number of days (0 or more) is needed with --prune');
          const pruned = pruneBackups(to, days);
          return {
            json: pruned,
            text: `Deleted ${counted(pruned.deleted.length, 'backup folder', 'backup folders')} older than ${days} days in ${to}; kept ${counted(pruned.kept.length, 'backup', 'backups')}.`,
          };
        }
        const { folder, manifest } = await takeBackup(config, to);
        return {
          json: { folder, ...manifest },
          text: `Backed up ${counted(manifest.eventCount, 'event', 'events')} (up to position ${manifest.headPosition ?? 'none'}) and the personal-data keys into ${folder}${manifest.encryption === null ? ': not encrypted (BACKUP_ENCRYPTION_KEY is not set), so keep it as you keep the store' : ', encrypted'}.`,
        };
      }),
    );
}
