// Every event's hash covers the hash before it and the event exactly as stored (sealed values as ciphertext), so a
// changed byte, or an event removed, inserted or moved, breaks the chain from there on (docs/history.md, The chain).
// The encoding is plain enough to reproduce with any SHA-256: an auditor's script, or SQL on another store.
import { hash } from 'node:crypto';

/** What the hash of the first event of a log follows. */
export const CHAIN_GENESIS: Buffer = Buffer.alloc(32);

/** Name the encodings, so a later one can be told apart. (v1, one hash over the hash before and the event, was
 * replaced before any checkpoint was signed: an export proves a gap between two events by their digests alone.) */
const EVENT_VERSION = Buffer.from('chorus-event-v2', 'utf8');
const CHAIN_VERSION = Buffer.from('chorus-chain-v2', 'utf8');

/** The fields of an event the chain covers, as the store holds them. */
export type ChainedFields = {
  position: bigint;
  streamId: string;
  revision: bigint;
  id: string;
  type: string;
  /** An instant; hashed as ISO-8601 UTC with milliseconds, so each store kind, whatever its own form, hashes it alike. */
  recordedAt: string;
  data: string;
  metadata: string;
};

const CANONICAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The instant as the chain hashes it: a time that does not parse is hashed as stored, so it can still be checked. */
export function chainTime(recordedAt: string): string {
  // The form every store writes already: no date arithmetic on the append path.
  if (CANONICAL_TIME.test(recordedAt)) return recordedAt;
  const instant = Date.parse(recordedAt);
  return Number.isNaN(instant) ? recordedAt : new Date(instant).toISOString();
}

const DIGEST_PREFIX = EVENT_VERSION.length + 16;

/**
 * One buffer the digest's bytes are written into, grown for a larger event and reused: this runs for every event
 * appended and verified, and a buffer a call cost more than the hash (bench/event-store, The chain).
 */
let scratch = Buffer.allocUnsafe(4_096);
EVENT_VERSION.copy(scratch, 0);

/**
 * The event's own digest: SHA-256 of "chorus-event-v2", its position and revision (8 bytes each, big-endian), and its
 * stream, id, type, time, data and metadata (each as its UTF-8 length in 4 bytes and its bytes).
 */
export function eventDigest(event: ChainedFields): Buffer {
  const texts = [event.streamId, event.id, event.type, chainTime(event.recordedAt), event.data, event.metadata];
  let size = DIGEST_PREFIX;
  // UTF-8 takes at most 3 bytes a UTF-16 unit: enough room without measuring each text first.
  for (const value of texts) size += 4 + value.length * 3;
  if (size > scratch.length) {
    scratch = Buffer.allocUnsafe(size * 2);
    EVENT_VERSION.copy(scratch, 0);
  }
  let at = scratch.writeBigUInt64BE(event.position, EVENT_VERSION.length);
  at = scratch.writeBigUInt64BE(event.revision, at);
  for (const value of texts) {
    const written = scratch.write(value, at + 4, 'utf8');
    scratch.writeUInt32BE(written, at);
    at += 4 + written;
  }
  return hash('sha256', scratch.subarray(0, at), 'buffer');
}

/** The link's bytes, written in place: the version stays, the hash before and the digest change. */
const LINK = Buffer.allocUnsafe(CHAIN_VERSION.length + 64);
CHAIN_VERSION.copy(LINK, 0);

/** SHA-256 of "chorus-chain-v2", the hash before (32 bytes) and an event's digest (32 bytes). */
export function linkDigest(previous: Buffer, digest: Buffer): Buffer {
  previous.copy(LINK, CHAIN_VERSION.length, 0, 32);
  digest.copy(LINK, CHAIN_VERSION.length + 32, 0, 32);
  return hash('sha256', LINK, 'buffer');
}

/**
 * An event's hash: its digest linked to the hash before. In two steps so that a proof can carry another
 * organization's event by its digest alone, which says nothing of it (its random id is inside).
 */
export function chainLink(previous: Buffer, event: ChainedFields): Buffer {
  return linkDigest(previous, eventDigest(event));
}

/**
 * An imported event's hash (a copy, a restore): its source's, kept as it is, so that a log changed behind its chain
 * stays as provably changed as its source; linked to the one before only where its source had none.
 */
export function importedHash(previous: Buffer | null, event: ChainedFields & { hash?: Buffer | null }): Buffer | null {
  return event.hash ?? (previous === null ? null : chainLink(previous, event));
}

/** An event with the hash stored with it: null where the store was written before the chain (`store:chain`). */
export type ChainedEvent = ChainedFields & { hash: Buffer | null };

/** Where and why the chain fails: the first event whose stored hash is not the one its place and bytes give. */
export type ChainBreak = {
  position: bigint;
  /** In words: what the hash says of the event. */
  reason: string;
};

/**
 * Checks a log's events in order, page after page: each stored hash must be the link of the one before and its own
 * bytes. Events written before the chain (no hash) end what can be proven: a store being chained (`store:chain`) has
 * a chained beginning and an unchained rest, and a chained event after an unchained one is a break.
 */
export class ChainCheck {
  private previous: Buffer;
  private lastPosition: bigint | undefined;
  /** Events whose hash held. */
  checked = 0;
  /** Events with no hash, from the first of them on. */
  unchained = 0;
  /** The last position proven. */
  provenTo: bigint | undefined = undefined;
  broken: ChainBreak | undefined = undefined;

  /** From the log's beginning, or on from an event already proven (its position and hash: a checkpoint's). */
  constructor(from?: { position: bigint; hash: Buffer }) {
    this.previous = from?.hash ?? CHAIN_GENESIS;
    this.lastPosition = from?.position;
    this.provenTo = from?.position;
  }

  /** The hash of the last event proven (the genesis before the first). */
  get lastHash(): Buffer {
    return this.previous;
  }

  /** Undefined while the chain holds; the first break once found (later events are then not checked). */
  next(event: ChainedEvent): ChainBreak | undefined {
    if (this.broken !== undefined) return this.broken;
    const last = this.lastPosition;
    this.lastPosition = event.position;
    if (last !== undefined && event.position <= last)
      return this.breakAt(event, `it is out of order: it comes after position ${last}`);
    if (event.hash === null) {
      this.unchained += 1;
      return undefined;
    }
    if (this.unchained > 0) return this.breakAt(event, 'it is chained, but an event before it is not');
    if (!chainLink(this.previous, event).equals(event.hash)) {
      const missing = last !== undefined && event.position > last + 1n;
      return this.breakAt(
        event,
        missing
          ? `the events before it, from position ${last + 1n}, are missing: removed`
          : 'its hash does not match: its data, metadata, type, time, stream, revision or id changed, or an event before it was removed, inserted or moved',
      );
    }
    this.previous = event.hash;
    this.checked += 1;
    this.provenTo = event.position;
    return undefined;
  }

  private breakAt(event: ChainedEvent, reason: string): ChainBreak {
    this.broken = { position: event.position, reason };
    return this.broken;
  }
}
