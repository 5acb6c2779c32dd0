import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { PersonalKeys } from '#application';
import { PERSONAL_KEYS } from '#event-store';
import { READ_MODELS, readModelsFile, type ReadModels } from '#read-models';
import { erasureRecords, PersonalDataErasure, ProblemError } from '#api';
import { personSubject } from '#domain';
import { configAction } from '../config-action.js';
import type { CliContext, GetCliContext } from '../cli-context.js';
import { caughtUpReadModels } from '../read-models-caught-up.js';
import { endRestore, erasureFolders, restoreLog, type RestoredLog, type RestorePoint } from '../store-tools/restore.js';
import { VerificationThread } from '../store-tools/verification-thread.js';
import { counted } from './projections-progress.js';

type Options = { from?: string; toPosition?: string; asOf?: string; yes?: boolean };

const invalid = (detail: string): ProblemError =>
  new ProblemError(400, 'VALIDATION_FAILED', 'The request is not valid', detail);

function pointOf(options: Options): RestorePoint {
  if (options.toPosition !== undefined && options.asOf !== undefined)
    throw invalid('--to-position / --as-of: name one point of the log, not both');
  if (options.toPosition !== undefined) {
    if (!/^\d+$/.test(options.toPosition)) throw invalid('--to-position: a position of the log (a whole number)');
    return { toPosition: BigInt(options.toPosition) };
  }
  if (options.asOf !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}T/.test(options.asOf) || Number.isNaN(Date.parse(options.asOf)))
      throw invalid('--as-of: an ISO 8601 time, such as 2026-11-27T10:00:00Z');
    return { asOf: new Date(options.asOf).toISOString() };
  }
  return {};
}

/**
 * Everyone erased since the log restored: those recorded erased after the backup was taken (their key is still in
 * it), and those whose key the backup holds erased while the log restored to a point before their erasure still
 * shows them.
 */
async function eraseAgain(context: CliContext, folders: readonly string[], restored: RestoredLog): Promise<string[]> {
  const keys = context.app.get<PersonalKeys>(PERSONAL_KEYS);
  const erasure = context.app.get(PersonalDataErasure);
  const records = (await Promise.all(folders.map((folder) => erasureRecords(folder)))).flat();
  const erased: string[] = [];
  for (const userId of new Set([...records.map((record) => record.userId), ...restored.erasedPeople])) {
    const held = (await keys.find([personSubject(userId)])).size > 0;
    if (!held && !(await erasure.stillShown(userId))) continue;
    // Keyless, their identifiers cannot be read: those their first erasure freed are freed by id.
    const claims = held ? [] : (restored.releasedBeyond.get(userId) ?? []);
    await erasure.erase(userId, context.commandContext('store:restore'), { again: true, claims });
    erased.push(userId);
  }
  return erased;
}

/** `chorus store:restore --from <backup> [--to-position N | --as-of TIME] --yes [--json]` (docs/operations.md). */
export function registerStoreRestoreCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('store:restore')
    .description(
      'restore a backup into the configured store, which must be empty, then rebuild and verify the read models',
    )
    .requiredOption('--from <backup>', 'the backup folder (the one holding manifest.json)')
    .option('--to-position <n>', 'stop at this position of the log')
    .option('--as-of <time>', 'stop at the last event recorded at or before this ISO time')
    .option('--yes', 'confirm: no server serves the configured store')
    .option('--json', 'print the result as JSON')
    .action(
      configAction(getContext, async (config, options: Options) => {
        const point = pointOf(options);
        if (options.yes !== true)
          throw invalid('store:restore writes the configured store: check that no server serves it, then add --yes');
        const from = resolve(options.from as string);
        const restored = await restoreLog(config, from, point);
        // The log is in place, and the read models left of an empty store are dropped: the service's modules open on
        // it and rebuild them from the restored log (the rebuild's replay, many times the projector's catch-up), then
        // erase again and take in those few events. The verification's own replay of the log runs meanwhile in a
        // thread of its own, then checks the stored models against it (projections:verify).
        for (const suffix of ['', '-wal', '-shm'])
          rmSync(`${readModelsFile(config.dataDir)}${suffix}`, { force: true });
        const verification = VerificationThread.start(config, restored.copy.headPosition);
        let erased: string[];
        try {
          const context = await getContext();
          await context.app.get<ReadModels>(READ_MODELS).rebuild({});
          await caughtUpReadModels(context);
          erased = await eraseAgain(
            context,
            erasureFolders(from, config).map((folder) => resolve(folder)),
            restored,
          );
          await caughtUpReadModels(context);
          // Someone erased again reads otherwise in events the thread has replayed: it replays them all again.
          const drifted = (await verification.verify({ readsChanged: erased.length > 0 }))
            .filter((verification) => verification.drift.length > 0)
            .map((verification) => verification.projection);
          if (drifted.length > 0)
            throw new ProblemError(
              409,
              'READ_MODELS_DRIFT',
              'The read models differ from the log',
              `After the restore, ${drifted.join(', ')} differ from a rebuild from the log: \`chorus projections:verify\` shows how.`,
            );
        } finally {
          await verification.stop();
        }
        await endRestore(config);
        const { copy, manifest } = restored;
        return {
          json: {
            from,
            store: restored.storeName,
            takenAt: manifest.takenAt,
            events: copy.alreadyThere + copy.copied,
            headPosition: copy.headPosition?.toString() ?? null,
            keys: copy.keys,
            erasures: copy.erasures,
            erasedAgain: erased,
            sessionSecret: restored.sessionSecret,
            readModels: 'verified',
          },
          text: [
            `Restored ${counted(copy.alreadyThere + copy.copied, 'event', 'events')} (up to position ${copy.headPosition ?? 'none'}) of the backup taken ${manifest.takenAt} into ${restored.storeName}.`,
            erased.length === 0
              ? 'No one erased since the backup was in it.'
              : `Erased again ${counted(erased.length, 'person', 'people')} erased after the backup was taken.`,
            'The read models were rebuilt and match the log (projections:verify): servers may start on it.',
          ].join('\n'),
        };
      }),
    );
}
