import type { Command } from 'commander';
import { PERSONAL_KEYS, openEventStore, openLogRewriter, type SignedCheckpoint } from '#event-store';
import { storeLocationOf, type Config } from '#config';
import type { PersonalKeys } from '#application';
import { CheckpointRefusal, HistoryCheckpoints, IDENTITY, ProblemError } from '#api';
import { sealPersonalData, type Identity } from '#identity';
import type { ReadModels, Verification } from '#read-models';
import type { CliOutput } from '../cli-action.js';
import type { CliContext, GetCliContext } from '../cli-context.js';
import { configAction } from '../config-action.js';
import { caughtUpReadModels } from '../read-models-caught-up.js';
import { counted } from './projections-progress.js';
import { sealIntoNewDatabase } from '../store-tools/seal-copy.js';

const drifted = (verifications: Verification[]): string[] =>
  verifications.filter((verification) => verification.drift.length > 0).map((verification) => verification.projection);

async function verified(readModels: ReadModels, when: string): Promise<void> {
  const drift = drifted(await readModels.verify());
  if (drift.length > 0) {
    throw new ProblemError(
      409,
      'READ_MODELS_DRIFT',
      'The read models differ from the log',
      `${when}, ${drift.join(', ')} differ from a rebuild from the log: \`chorus projections:verify\` shows how.`,
    );
  }
}

/**
 * The re-chain recorded in the log: a checkpoint signed over the chain given again, which sets aside the checkpoints
 * before it that signed the bytes now sealed (docs/history.md). A refusal is said, not thrown: the sealing is done.
 */
async function signRechain(
  context: CliContext,
  rechainedFrom: bigint | undefined,
): Promise<{ checkpoint?: SignedCheckpoint; words: string }> {
  if (rechainedFrom === undefined) return { words: '' };
  try {
    const checkpoint = await context.app.get(HistoryCheckpoints).sign('rechain', {
      rechainedFrom,
      context: context.commandContext('store:seal-personal-data'),
    });
    return {
      checkpoint,
      words: ` A checkpoint signed at position ${checkpoint.position} records the re-chain in the log.`,
    };
  } catch (error) {
    if (!(error instanceof CheckpointRefusal)) throw error;
    return { words: ` No checkpoint records the re-chain: ${error.message}.` };
  }
}

/** EventStoreDB's: a copy into a new database, the configured one only read. */
async function sealByCopy(config: Config, into: string): Promise<CliOutput> {
  const result = await sealIntoNewDatabase(config, into);
  if (!result.sealed)
    return {
      json: {
        sealed: false,
        sealedThere: result.sealedThere,
        examined: 0,
        rewritten: 0,
        renamedStreams: 0,
        from: result.from,
        to: result.to,
      },
      text: result.sealedThere
        ? `${result.from} was sealed into ${result.to} already; the keys and erasures made since were copied again.`
        : `${result.from} is sealed already: nothing to do (\`chorus store:copy\` moves it as it is).`,
    };
  return {
    json: result,
    text: `Copied ${counted(result.examined, 'event', 'events')} from ${result.from} into ${result.to}, the personal data of ${result.rewritten} sealed (${counted(result.renamedStreams, 'stream', 'streams')} renamed by a keyed hash); every event was read back from ${result.to} and opens to what it held. ${result.from} is unchanged. Point EVENTSTORE_CONNECTION_STRING at the new database: servers build their read models from it as they start.`,
  };
}

async function sealInPlace(context: CliContext): Promise<CliOutput> {
  const names = context.app.get<Identity>(IDENTITY).identifierNames;
  if (!names.readsLegacyNames) {
    return {
      json: { sealed: false, examined: 0, rewritten: 0, renamedStreams: 0 },
      text: 'This store is sealed already: nothing to do.',
    };
  }
  const readModels = await caughtUpReadModels(context);
  await verified(readModels, 'Before sealing');
  const location = storeLocationOf(context.config);
  const store = await openEventStore(location);
  const rewriter = await openLogRewriter(location);
  try {
    const sealed = await sealPersonalData({
      store,
      rewriter,
      keys: context.app.get<PersonalKeys>(PERSONAL_KEYS),
      names,
    });
    // The read models held what the log held in clear: rebuilt from the sealed log, they keep only what they show.
    await readModels.rebuild({});
    await verified(readModels, 'After sealing');
    const signed = await signRechain(context, sealed.rechainedFrom);
    return {
      json: {
        sealed: true,
        ...sealed,
        rechainedFrom: sealed.rechainedFrom?.toString() ?? null,
        checkpoint: signed.checkpoint ?? null,
      },
      text: `Sealed the personal data of ${sealed.rewritten} of ${counted(sealed.examined, 'event', 'events')} in place (${counted(sealed.renamedStreams, 'stream', 'streams')} renamed by a keyed hash); the read models were rebuilt from the sealed log and match it.${sealed.rechainedFrom === undefined ? '' : ` The chain was given again over the sealed bytes from position ${sealed.rechainedFrom} on, so store:verify proves the sealed log.`}${signed.words}`,
    };
  } finally {
    await rewriter.close();
    await store.close();
  }
}

/**
 * `chorus store:seal-personal-data --yes [--into <esdb://new>] [--json]`: seals what a build before sealing wrote in
 * clear (docs/privacy.md): in place on the embedded store and PostgreSQL, by a copy into a new database on EventStoreDB.
 */
export function registerStoreSealPersonalDataCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('store:seal-personal-data')
    .description(
      'seal the personal data an older Chorus wrote in clear: in place (SQLite and PostgreSQL; every server stopped), or on EventStoreDB by a copy into a new database (--into)',
    )
    .option('--yes', 'confirm: every server of this store is stopped')
    .option('--into <esdb>', 'EventStoreDB only: the new, empty database the sealed log is copied into')
    .option('--json', 'print the result as JSON')
    .action(
      configAction(getContext, async (config, options: { yes?: boolean; into?: string }) => {
        if (options.yes !== true) {
          throw new ProblemError(
            400,
            'VALIDATION_FAILED',
            'The request is not valid',
            options.into === undefined
              ? 'store:seal-personal-data rewrites the log in place: stop every server of this store, then add --yes.'
              : 'store:seal-personal-data --into copies the log as the servers last wrote it: stop every server of this store, then add --yes.',
          );
        }
        if (options.into !== undefined) return sealByCopy(config, options.into);
        if (config.eventStoreConnectionString !== undefined)
          throw new ProblemError(
            409,
            'SEAL_BY_COPY',
            'EventStoreDB is sealed by a copy',
            'EventStoreDB keeps every event as written: seal this store into a new, empty database with --into <esdb://...> (docs/privacy.md).',
          );
        return sealInPlace(await getContext());
      }),
    );
}
