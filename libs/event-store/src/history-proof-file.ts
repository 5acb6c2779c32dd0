// An organization's history exported with its proof (`?format=jsonl&proof=true`), and its check, which needs no server
// and no store (`chorus history:verify`). Each event line carries the event exactly as stored, the hash before it and
// its own; a "skipped" line carries the digests of the other streams' events between two of its events, which say
// nothing of them; the last line is a signed checkpoint at or after the last event. From the first event's hash, the
// lines must link, one by one, to the hash the checkpoint signs (docs/history.md, Checking an export).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { eventDigest, linkDigest, type ChainedEvent } from './event-chain.js';
import {
  checkpointSignatureHolds,
  keyFingerprint,
  asSignedCheckpoint,
  type SignedCheckpoint,
} from './history-checkpoint.js';

/** An event's proof, as its line carries it: positions and revisions as decimal text, hashes as hex. */
export type EventProof = {
  position: string;
  streamId: string;
  revision: string;
  id: string;
  type: string;
  recordedAt: string;
  data: string;
  metadata: string;
  previous: string;
  hash: string;
};

/** The digests of the events from `from` to `to` (inclusive), none of them the organization's. */
export type SkippedEvents = { from: string; to: string; digests: string[] };

export function eventProof(event: ChainedEvent & { hash: Buffer }, previous: Buffer): EventProof {
  return {
    position: event.position.toString(),
    streamId: event.streamId,
    revision: event.revision.toString(),
    id: event.id,
    type: event.type,
    recordedAt: event.recordedAt,
    data: event.data,
    metadata: event.metadata,
    previous: previous.toString('hex'),
    hash: event.hash.toString('hex'),
  };
}

export const skippedLine = (skipped: SkippedEvents): string => `${JSON.stringify({ skipped })}\n`;
export const checkpointLine = (checkpoint: SignedCheckpoint): string => `${JSON.stringify({ checkpoint })}\n`;

/** The first line that fails (counted from 1, as an editor counts), and why. */
export type ProofFailure = { line: number; reason: string };

export type ProofVerdict =
  | { proven: true; events: number; stream: string; checkpoint: SignedCheckpoint }
  | { proven: false; events: number; failure: ProofFailure };

const HEX_HASH = /^[0-9a-f]{64}$/;
const DECIMAL = /^(0|[1-9]\d*)$/;

function isProof(value: unknown): value is EventProof {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const texts = [
    'position',
    'streamId',
    'revision',
    'id',
    'type',
    'recordedAt',
    'data',
    'metadata',
    'previous',
    'hash',
  ];
  return (
    texts.every((field) => typeof record[field] === 'string') &&
    DECIMAL.test(record.position as string) &&
    DECIMAL.test(record.revision as string) &&
    HEX_HASH.test(record.previous as string) &&
    HEX_HASH.test(record.hash as string)
  );
}

function isSkipped(value: unknown): value is SkippedEvents {
  if (typeof value !== 'object' || value === null) return false;
  const { from, to, digests } = value as Record<string, unknown>;
  return (
    typeof from === 'string' &&
    typeof to === 'string' &&
    DECIMAL.test(from) &&
    DECIMAL.test(to) &&
    Array.isArray(digests) &&
    digests.every((digest) => typeof digest === 'string' && HEX_HASH.test(digest))
  );
}

/** The words of an event line the timeline shows, which must name the event its proof proves. */
const SAME_AS_PROOF = ['position', 'revision', 'type', 'recordedAt'] as const;

/** Checks an export line after line; `end()` gives the verdict. */
export class ExportProofCheck {
  private readonly key: KeyObject;
  private readonly fingerprint: string;
  private previous: Buffer | undefined;
  private nextPosition: bigint | undefined;
  private nextRevision = 0n;
  private stream: string | undefined;
  private checkpoint: SignedCheckpoint | undefined;
  private lines = 0;
  private events = 0;
  private failure: ProofFailure | undefined;

  /** `publicKey`: the PEM `GET /history/public-key` serves, obtained apart from the export. */
  constructor(publicKey: string | KeyObject) {
    this.key = typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey;
    this.fingerprint = keyFingerprint(this.key);
  }

  /** One line of the file, without its line end; false once a line has failed. */
  line(text: string): boolean {
    if (this.failure !== undefined) return false;
    this.lines += 1;
    if (this.checkpoint !== undefined) return this.fail('it comes after the checkpoint, which must be the last line');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.fail('it is not JSON');
    }
    if (typeof value !== 'object' || value === null)
      return this.fail('it is not an event, skipped events or a checkpoint');
    const record = value as Record<string, unknown>;
    if ('checkpoint' in record) return this.checkpointLine(record.checkpoint);
    if ('skipped' in record) return this.skippedLine(record.skipped);
    if ('proof' in record) return this.eventLine(record);
    return this.fail('it carries no proof: export with proof=true');
  }

  end(): ProofVerdict {
    if (this.failure === undefined && this.checkpoint === undefined)
      this.failure = {
        line: this.lines + 1,
        reason:
          this.events === 0
            ? 'the export holds no event'
            : 'the export ends without its signed checkpoint: lines were removed from its end, or it was cut short',
      };
    if (this.failure !== undefined) return { proven: false, events: this.events, failure: this.failure };
    return {
      proven: true,
      events: this.events,
      stream: this.stream as string,
      checkpoint: this.checkpoint as SignedCheckpoint,
    };
  }

  private eventLine(record: Record<string, unknown>): boolean {
    const proof = record.proof;
    if (!isProof(proof)) return this.fail('its proof is malformed');
    const position = BigInt(proof.position);
    if (this.nextPosition !== undefined && position !== this.nextPosition)
      return this.fail(
        position > this.nextPosition
          ? `it is at position ${position}, and the line before it ends at ${this.nextPosition - 1n}: a line between them was removed`
          : `it is at position ${position}, before the line above it (${this.nextPosition - 1n}): lines were moved`,
      );
    if (this.stream !== undefined && proof.streamId !== this.stream)
      return this.fail(`it is of the stream ${proof.streamId}, and the export of ${this.stream}`);
    if (BigInt(proof.revision) !== this.nextRevision)
      return this.fail(
        `it is the stream's event ${proof.revision}, where ${this.nextRevision} comes next: an event of the organization before it was removed, or lines were moved`,
      );
    for (const field of SAME_AS_PROOF)
      if (String(record[field]) !== proof[field])
        return this.fail(
          `its ${field} (${String(record[field])}) is not its proof's (${proof[field]}): the line was changed`,
        );
    const previous = Buffer.from(proof.previous, 'hex');
    if (this.previous !== undefined && !previous.equals(this.previous))
      return this.fail(
        'the hash before it is not the hash the lines above end with: a line before it was changed, removed or moved',
      );
    const event = { ...proof, position, revision: BigInt(proof.revision) };
    const hash = linkDigest(previous, eventDigest(event));
    if (hash.toString('hex') !== proof.hash)
      return this.fail(
        'its hash does not match its bytes: its data, metadata, type, time, stream, revision or id was changed',
      );
    this.previous = hash;
    this.nextPosition = position + 1n;
    this.nextRevision += 1n;
    this.stream = proof.streamId;
    this.events += 1;
    return true;
  }

  private skippedLine(value: unknown): boolean {
    if (!isSkipped(value)) return this.fail('its skipped events are malformed');
    if (this.previous === undefined || this.nextPosition === undefined)
      return this.fail('skipped events come before the first event of the organization');
    const from = BigInt(value.from);
    const to = BigInt(value.to);
    if (from !== this.nextPosition)
      return this.fail(
        from > this.nextPosition
          ? `its skipped events start at position ${from}, and the line before it ends at ${this.nextPosition - 1n}: a line between them was removed`
          : `its skipped events start at position ${from}, before the line above it ends (${this.nextPosition - 1n}): lines were moved`,
      );
    if (to - from + 1n !== BigInt(value.digests.length))
      return this.fail(`it skips positions ${from} to ${to} with ${value.digests.length} digests`);
    let previous = this.previous;
    for (const digest of value.digests) previous = linkDigest(previous, Buffer.from(digest, 'hex'));
    this.previous = previous;
    this.nextPosition = to + 1n;
    return true;
  }

  private checkpointLine(value: unknown): boolean {
    const checkpoint = asSignedCheckpoint(value);
    if (checkpoint === undefined) return this.fail('its checkpoint is malformed');
    if (this.previous === undefined || this.nextPosition === undefined)
      return this.fail('the checkpoint comes before any event');
    if (checkpoint.position !== (this.nextPosition - 1n).toString())
      return this.fail(
        `the checkpoint signs position ${checkpoint.position}, and the lines above it end at ${this.nextPosition - 1n}`,
      );
    if (checkpoint.hash !== this.previous.toString('hex'))
      return this.fail('the hash the lines end with is not the one the checkpoint signs: a line above was changed');
    let signer: string;
    try {
      signer = keyFingerprint(checkpoint.publicKey);
    } catch {
      return this.fail('its public key is malformed');
    }
    if (signer !== this.fingerprint)
      return this.fail(`the checkpoint was signed by the key ${signer}, not by the key given (${this.fingerprint})`);
    if (!checkpointSignatureHolds(checkpoint, this.key)) return this.fail("the checkpoint's signature does not hold");
    this.checkpoint = checkpoint;
    return true;
  }

  private fail(reason: string): false {
    this.failure = { line: this.lines, reason };
    return false;
  }
}
