import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { existingHistoryPublicKey, type EventStoreDbCopies } from '#event-store';
import { configAction } from '../config-action.js';
import type { GetCliContext } from '../cli-context.js';
import type { Config } from '#config';
import type { CliOutput } from '../cli-output.js';
import { chainOf, verifyChain, type ChainVerification } from '../store-tools/chain-log.js';
import { invalidInput } from '../store-tools/store-refusal.js';
import { ExitCode } from '../exit-codes.js';
import { compareLogs } from '../store-tools/compare-logs.js';
import { openConfiguredStore, openStoreAt, type OpenedStore } from '../store-tools/stores.js';
import { counted } from './projections-progress.js';

/** The key checkpoints are checked with: `--public-key`, else this node's (HISTORY_SIGNING_KEY or DATA_DIR), else none. */
function checkingKey(config: Config, publicKey: string | undefined): KeyObject | undefined {
  if (publicKey !== undefined) {
    try {
      return createPublicKey(readFileSync(publicKey, 'utf8'));
    } catch {
      throw invalidInput(`--public-key: ${publicKey} is not a readable PEM public key`);
    }
  }
  return existingHistoryPublicKey({ configured: config.historySigningKey, dataDir: config.dataDir })?.publicKey;
}

/** What the checkpoints add to a proven chain, in words. */
function signedWords({ checkpoints, signed, checkpointsUnchecked }: ChainVerification): string {
  if (checkpointsUnchecked)
    return ` Its ${counted(checkpoints, 'checkpoint is', 'checkpoints are')} not checked: there is no key here (set HISTORY_SIGNING_KEY, or give --public-key).`;
  if (signed === undefined) return ' No checkpoint is signed yet (chorus history:checkpoint signs one).';
  return ` ${counted(checkpoints, 'signed checkpoint holds', 'signed checkpoints hold')}; the latest, signed at ${signed.time}, covers position ${signed.position}.`;
}

/** EventStoreDB's streams' chains walked (docs/history.md): exit 0 when every event is proven, 1 naming a failure. */
async function verifyStreamChains(store: OpenedStore): Promise<CliOutput> {
  const { checked, unchained, provenTo, broken } = await (store.copyLog as EventStoreDbCopies).verifyStreams();
  const json = {
    proven: broken === undefined && unchained === 0,
    checked,
    provenTo: provenTo?.toString() ?? null,
    unchained,
    chain: 'streams',
    ...(broken === undefined ? {} : { failedAt: broken.position.toString(), failure: broken.reason }),
  };
  const proven = `${counted(checked, 'event', 'events')} of ${store.name}, each hash the link of the one before it in its stream and its own fields`;
  const unproven =
    'EventStoreDB gives positions and times itself: the order of streams in $all, the times, and a stream removed whole are not proven, and no checkpoint is signed (docs/history.md)';
  if (broken !== undefined) process.exitCode = ExitCode.refused;
  else if (unchained > 0) process.exitCode = ExitCode.refused;
  return {
    json,
    text:
      broken !== undefined
        ? `The log fails at position ${broken.position}: ${broken.reason}. Before it, ${proven}.`
        : unchained > 0
          ? `${counted(unchained, 'event', 'events')} of ${store.name} ${unchained === 1 ? 'was' : 'were'} written before the chain and prove nothing: EventStoreDB keeps every event as written, so chain them by a copy into a new database (chorus store:copy, docs/operations.md). ${proven}.`
          : `The streams are proven: ${proven}. ${unproven}.`,
  };
}

/** The chain and its checkpoints walked: exit 0 when every event is proven, 1 naming the first that fails. */
async function verifyStoreChain(config: Config, publicKey: string | undefined): Promise<CliOutput> {
  const key = checkingKey(config, publicKey);
  const store = await openConfiguredStore(config);
  try {
    if (store.kind === 'eventstoredb') return await verifyStreamChains(store);
    const verification = await verifyChain(chainOf(store), key);
    const { checked, provenTo, unchained, broken, checkpoints, signed, checkpointsUnchecked } = verification;
    const proven = provenTo === undefined ? 'nothing' : `up to position ${provenTo}`;
    const json = {
      proven: broken === undefined && unchained === 0,
      checked,
      provenTo: provenTo?.toString() ?? null,
      unchained,
      checkpoints,
      checkpointsChecked: !checkpointsUnchecked,
      signedTo: signed?.position ?? null,
      signedAt: signed?.time ?? null,
      ...(broken === undefined ? {} : { failedAt: broken.position.toString(), failure: broken.reason }),
    };
    if (broken !== undefined) {
      process.exitCode = ExitCode.refused;
      return {
        json,
        text: `The log fails at position ${broken.position}: ${broken.reason}. It is proven ${proven} (${counted(checked, 'event', 'events')}).`,
      };
    }
    if (unchained > 0) {
      process.exitCode = ExitCode.refused;
      return {
        json,
        text: `${counted(unchained, 'event', 'events')} of ${store.name} ${unchained === 1 ? 'was' : 'were'} written before the chain and prove nothing: run chorus store:chain --yes. The log is proven ${proven}.`,
      };
    }
    return {
      json,
      text: `The log is proven ${proven}: ${counted(checked, 'event', 'events')} of ${store.name}, each hash the link of the one before and its own bytes.${signedWords(verification)}`,
    };
  } finally {
    await store.close();
  }
}

/**
 * `chorus store:verify [--json]`: the chain walked; `--against <source>`: exit 0 when the logs are equal, 1 naming the
 * first difference.
 */
export function registerStoreVerifyCommand(program: Command, getContext: GetCliContext): void {
  program
    .command('store:verify')
    .description(
      "prove the configured store's log by its chain, or with --against compare it with another store's (exit 1 at a failure)",
    )
    .option(
      '--against <source>',
      'a DATA_DIR path, a postgres:// URL or an esdb:// connection string: the store copied from',
    )
    .option('--public-key <file>', "check the checkpoints with this PEM public key rather than this node's key")
    .option('--json', 'print the result as JSON')
    .action(
      configAction(getContext, async (config, options: { against?: string; publicKey?: string }) => {
        if (options.against === undefined) return verifyStoreChain(config, options.publicKey);
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
