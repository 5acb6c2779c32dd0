// A signed checkpoint: a position of the log and the chain's hash there, with the time it was signed, signed with an
// Ed25519 key that is not in the log. Anyone who rewrites the log after it cannot give the chain that hash again
// without the key. The message is one line of text, so OpenSSL can check it (docs/history.md).
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/** The stream the checkpoints are kept in: in the log, so a copy or a restore carries them. */
export const CHECKPOINT_STREAM = 'history-checkpoints';
export const CHECKPOINT_SIGNED = 'HistoryCheckpointSigned';

/** Why a checkpoint was signed. */
export type CheckpointReason = 'events' | 'hour' | 'on-demand' | 'export' | 'new-key' | 'rechain';

/**
 * What is signed: the id of the event that keeps the checkpoint (unique in its stream, so a checkpoint cannot be
 * appended twice), the position, the chain's hash there (hex), the time of signing (ISO-8601 UTC), and, after sealing
 * rewrote bytes (`rechain`), the first position whose hash was given again.
 */
export type CheckpointFields = { id: string; position: string; hash: string; time: string; rechainedFrom?: string };

/** The event's data: the fields, the signature (base64) and the public key that checks it (PEM). */
export type SignedCheckpoint = CheckpointFields & {
  signature: string;
  publicKey: string;
  reason: CheckpointReason;
  /** On a key change (`new-key`): the key that signed the checkpoints before it, which this one vouches for. */
  previousKey?: string;
};

/**
 * The signed message, in ASCII without a line end: `chorus-checkpoint-v1 <id> <position> <hash> <time>`, followed by
 * ` rechained-from <position>` on a re-chain.
 */
export function checkpointMessage({ id, position, hash, time, rechainedFrom }: CheckpointFields): Buffer {
  const rechained = rechainedFrom === undefined ? '' : ` rechained-from ${rechainedFrom}`;
  return Buffer.from(`chorus-checkpoint-v1 ${id} ${position} ${hash} ${time}${rechained}`, 'ascii');
}

export function signCheckpoint(
  privateKey: KeyObject,
  fields: CheckpointFields,
  reason: CheckpointReason,
  previousKey?: string,
): SignedCheckpoint {
  const publicKey = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  const signature = sign(null, checkpointMessage(fields), privateKey).toString('base64');
  return {
    id: fields.id,
    position: fields.position,
    hash: fields.hash,
    time: fields.time,
    ...(fields.rechainedFrom === undefined ? {} : { rechainedFrom: fields.rechainedFrom }),
    signature,
    publicKey,
    reason,
    ...(previousKey === undefined ? {} : { previousKey }),
  };
}

/** Whether the checkpoint's signature holds under this public key (any malformed part: it does not). */
export function checkpointSignatureHolds(
  checkpoint: CheckpointFields & { signature: string },
  key: KeyObject,
): boolean {
  try {
    return verify(null, checkpointMessage(checkpoint), key, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    return false;
  }
}

/** A public key's name: SHA-256 of its SubjectPublicKeyInfo (DER), hex, as `openssl pkey -pubin -outform DER | sha256sum` gives it. */
export function keyFingerprint(key: KeyObject | string): string {
  const object = typeof key === 'string' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(object.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

/** The checkpoint event's data read back, or undefined when it is not one. */
export function asSignedCheckpoint(data: unknown): SignedCheckpoint | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as Record<string, unknown>;
  const texts = ['id', 'position', 'hash', 'time', 'signature', 'publicKey', 'reason'];
  if (!texts.every((field) => typeof record[field] === 'string')) return undefined;
  for (const optional of ['previousKey', 'rechainedFrom'])
    if (record[optional] !== undefined && typeof record[optional] !== 'string') return undefined;
  return record as SignedCheckpoint;
}
