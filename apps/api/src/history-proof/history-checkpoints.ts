// Signed checkpoints (docs/history.md): the chain verified from the last checkpoint to the head, then the head's
// position and hash signed and kept in the log. At least every 10,000 events or every hour, on demand
// (`chorus history:checkpoint`), and for an export whose last event the latest one does not cover.
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { handleCommand, newCommandContext, type CommandContext } from '#application';
import { historyCheckpointsDecider, historyCheckpointsStream } from '#domain';
import { CONFIG, type Config } from '#config';
import {
  asSignedCheckpoint,
  CHAINED_LOG,
  ChainCheck,
  CHECKPOINT_STREAM,
  EVENT_STORE,
  keyFingerprint,
  loadHistorySigningKey,
  signCheckpoint,
  type ChainedLog,
  type CheckpointReason,
  type EventStore,
  type HistorySigningKey,
  type SignedCheckpoint,
} from '#event-store';
import { AppClock } from '../config/app-clock.js';
import { PINO } from '../logging/pino.js';

/** A checkpoint at least this many events after the last one... */
export const CHECKPOINT_EVERY_EVENTS = 10_000n;
/** ...or this long after it, if anything was appended since. */
export const CHECKPOINT_EVERY_MS = 3_600_000;

const PAGE = 10_000;

/** The latest checkpoint as kept in the log. */
export type KeptCheckpoint = { checkpoint: SignedCheckpoint; revision: bigint; position: bigint };

/** Why no checkpoint could be signed, in words: the command line's and the console's answer. */
export class CheckpointRefusal extends Error {
  constructor(
    readonly code: 'NOT_CHAINED' | 'EMPTY' | 'CHAIN_BROKEN' | 'UNCHAINED' | 'OTHER_KEY',
    message: string,
    readonly failedAt?: bigint,
  ) {
    super(message);
    this.name = 'CheckpointRefusal';
  }
}

/** What the last look at the chain found: the console's "verified up to". */
export type ChainVerdict =
  | { verified: true; upTo: string | null; at: string }
  | { verified: false; failedAt: string; failure: string; at: string };

@Injectable()
export class HistoryCheckpoints {
  private signing: HistorySigningKey | undefined;
  private verdict: ChainVerdict | undefined;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAINED_LOG) private readonly chain: ChainedLog | null,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(PINO) private readonly logger: Logger,
    private readonly clock: AppClock,
  ) {}

  /** The signing key, loaded (or generated into DATA_DIR) once; a bad setting throws HistoryKeyError. */
  key(): HistorySigningKey {
    this.signing ??= loadHistorySigningKey({ configured: this.config.historySigningKey, dataDir: this.config.dataDir });
    return this.signing;
  }

  /** Whether this store keeps a chain to sign: the embedded store and PostgreSQL do, EventStoreDB not (docs/history.md). */
  get chained(): boolean {
    return this.chain !== null;
  }

  get lastVerdict(): ChainVerdict | undefined {
    return this.verdict;
  }

  async latest(): Promise<KeptCheckpoint | undefined> {
    const read = await this.store.readStream(CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
    const event = read.found ? read.events[0] : undefined;
    const checkpoint = event === undefined ? undefined : asSignedCheckpoint(event.data);
    if (event === undefined || checkpoint === undefined) return undefined;
    return { checkpoint, revision: event.revision, position: BigInt(checkpoint.position) };
  }

  /** Whether a checkpoint is due, and why: 10,000 events since the last, or an hour with any. */
  async due(): Promise<CheckpointReason | undefined> {
    if (this.chain === null) return undefined;
    const head = await this.store.headPosition();
    if (head === undefined) return undefined;
    const latest = await this.latest();
    // The checkpoint's own event comes after the position it signs: that alone is nothing new.
    const since = latest === undefined ? head : head - latest.position - 1n;
    if (since >= CHECKPOINT_EVERY_EVENTS) return 'events';
    if (since <= 0n) return undefined;
    const from = latest?.checkpoint.time ?? (await this.store.readAll({ maxCount: 1 }))[0]?.recordedAt;
    const age = from === undefined ? 0 : this.clock.now().getTime() - Date.parse(from);
    return age >= CHECKPOINT_EVERY_MS ? 'hour' : undefined;
  }

  /**
   * Verifies the chain from the latest checkpoint (or the beginning) to the head, then signs the last event proven
   * and appends the checkpoint. Two nodes signing at once: one appends, the other answers its checkpoint.
   * `newKey`: the latest checkpoint was signed by another key, and the operator says this one replaces it.
   */
  async sign(
    reason: CheckpointReason,
    {
      newKey = false,
      rechainedFrom,
      context,
    }: { newKey?: boolean; rechainedFrom?: bigint; context?: CommandContext } = {},
  ): Promise<SignedCheckpoint> {
    const chain = this.chain;
    if (chain === null)
      throw new CheckpointRefusal(
        'NOT_CHAINED',
        'This store keeps no chain of its log: EventStoreDB gives positions itself, so nothing can be signed (docs/history.md)',
      );
    const key = this.key();
    const latest = await this.latest();
    const previousKey =
      latest === undefined || keyFingerprint(latest.checkpoint.publicKey) === key.fingerprint
        ? undefined
        : latest.checkpoint.publicKey;
    if (previousKey !== undefined && !newKey)
      throw new CheckpointRefusal(
        'OTHER_KEY',
        `The latest checkpoint was signed by another key (${keyFingerprint(previousKey)}) than this one (${key.fingerprint}, ${key.source}): set HISTORY_SIGNING_KEY to the key that signed it, or replace it with chorus history:checkpoint --new-key`,
      );
    // After a re-chain the latest checkpoint may sign a hash given again since: the whole chain is walked.
    const proven = await this.verify(chain, rechainedFrom === undefined ? latest : undefined);
    const id = randomUUID();
    const fields = {
      id,
      position: proven.position.toString(),
      hash: proven.hash.toString('hex'),
      time: this.clock.now().toISOString(),
      ...(rechainedFrom === undefined ? {} : { rechainedFrom: rechainedFrom.toString() }),
    };
    const checkpoint = signCheckpoint(
      key.privateKey,
      fields,
      rechainedFrom !== undefined ? 'rechain' : newKey ? 'new-key' : reason,
      previousKey,
    );
    // The one application path: another node's checkpoint as far or further, kept meanwhile, makes ours nothing to keep.
    const kept = await handleCommand(
      this.store,
      historyCheckpointsDecider,
      historyCheckpointsStream,
      { type: 'KeepCheckpoint', data: checkpoint },
      context ?? newCommandContext('system'),
      { eventId: () => id },
    );
    if (kept.appended.length === 0) {
      const theirs = await this.latest();
      if (theirs !== undefined) return theirs.checkpoint;
    }
    this.logger.info(
      { position: fields.position, reason: checkpoint.reason, key: key.fingerprint },
      'History checkpoint signed',
    );
    return checkpoint;
  }

  /** The latest checkpoint if it covers `position`; else one signed now (an export's last event). */
  async covering(position: bigint): Promise<SignedCheckpoint> {
    const latest = await this.latest();
    if (latest !== undefined && latest.position >= position) return latest.checkpoint;
    return this.sign('export');
  }

  /** A checkpoint if one is due; a failure is logged and kept for the console, never thrown (a timer calls it). */
  async signIfDue(): Promise<SignedCheckpoint | undefined> {
    try {
      const reason = await this.due();
      return reason === undefined ? undefined : await this.sign(reason);
    } catch (error) {
      this.logger.error({ err: error }, 'No history checkpoint could be signed');
      return undefined;
    }
  }

  /** The chain from the latest checkpoint to the head: the last event proven, or a refusal naming the first failure. */
  private async verify(
    chain: ChainedLog,
    latest: KeptCheckpoint | undefined,
  ): Promise<{ position: bigint; hash: Buffer }> {
    const at = this.clock.now().toISOString();
    let check = new ChainCheck();
    if (latest !== undefined) {
      const [signed] = await chain.readChain(latest.position - 1n, 1);
      const hash = Buffer.from(latest.checkpoint.hash, 'hex');
      if (signed?.position !== latest.position || signed.hash === null || !signed.hash.equals(hash))
        return this.failed(
          latest.position,
          'its hash is not the one the latest checkpoint signed: the log was changed at or before it',
          at,
        );
      check = new ChainCheck({ position: latest.position, hash });
    }
    for (let after = latest?.position ?? 0n; ;) {
      const page = await chain.readChain(after, PAGE);
      for (const event of page) if (check.next(event) !== undefined) break;
      const last = page.at(-1);
      if (last === undefined || check.broken !== undefined) break;
      after = last.position;
    }
    if (check.broken !== undefined) return this.failed(check.broken.position, check.broken.reason, at);
    if (check.unchained > 0)
      throw new CheckpointRefusal(
        'UNCHAINED',
        `${check.unchained} events were written before the chain: run chorus store:chain --yes, then sign`,
      );
    if (check.provenTo === undefined) throw new CheckpointRefusal('EMPTY', 'The log has no event to sign yet');
    this.verdict = { verified: true, upTo: check.provenTo.toString(), at };
    return { position: check.provenTo, hash: check.lastHash };
  }

  private failed(position: bigint, failure: string, at: string): never {
    this.verdict = { verified: false, failedAt: position.toString(), failure, at };
    throw new CheckpointRefusal('CHAIN_BROKEN', `The log fails at position ${position}: ${failure}`, position);
  }
}
