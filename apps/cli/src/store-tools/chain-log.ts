// The log's chain walked (store:verify) and given to a log written before it (store:chain), page by page.
import { createPublicKey, type KeyObject } from 'node:crypto';
import {
  asSignedCheckpoint,
  ChainCheck,
  CHECKPOINT_SIGNED,
  CHECKPOINT_STREAM,
  checkpointSignatureHolds,
  keyFingerprint,
  type ChainBreak,
  type ChainedEvent,
  type ChainedLog,
  type EventStore,
  type SignedCheckpoint,
} from '#event-store';
import { StoreRefusal } from './store-refusal.js';
import type { OpenedStore } from './stores.js';

const PAGE = 10_000;

const chainedOf = (store: EventStore): ChainedLog | undefined =>
  'readChain' in store ? (store as EventStore & ChainedLog) : undefined;

/** The embedded store and PostgreSQL keep a chain of the log; EventStoreDB is refused in words that say so. */
export function chainOf(store: OpenedStore): ChainedLog {
  const chained = chainedOf(store.events);
  if (chained === undefined)
    throw new StoreRefusal(
      409,
      'NOT_CHAINED',
      'The log keeps no chain',
      `${store.name} keeps no chain of its log: EventStoreDB gives positions itself. It chains each stream as it appends and keeps every event as written: events written before that are chained by a copy into a new database (chorus store:copy), and chorus store:verify proves the streams (docs/history.md)`,
    );
  return chained;
}

export type ChainVerification = {
  /** Events whose hash holds, from the first: the log is proven up to `provenTo`. */
  checked: number;
  provenTo: bigint | undefined;
  /** Events with no hash (written before the chain): `store:chain` gives them one. */
  unchained: number;
  broken: ChainBreak | undefined;
  /** The signed checkpoints found in the proven part, and the latest whose signature and hash hold. */
  checkpoints: number;
  signed: SignedCheckpoint | undefined;
  /** No key to check them with: they were counted, not checked. */
  checkpointsUnchecked: boolean;
};

type FoundCheckpoint = { at: bigint; eventId: string; checkpoint: SignedCheckpoint | undefined };

/** The checkpoint events among a page of the chain (kept in the log like any event). */
const checkpointsIn = (page: readonly ChainedEvent[], until: bigint | undefined): FoundCheckpoint[] =>
  page
    .filter((event) => event.streamId === CHECKPOINT_STREAM && event.type === CHECKPOINT_SIGNED)
    .filter((event) => until !== undefined && event.position <= until)
    .map((event) => {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        data = undefined;
      }
      return { at: event.position, eventId: event.id, checkpoint: asSignedCheckpoint(data) };
    });

/**
 * The keys a checkpoint may be signed by: the one given, and each key a trusted key's `new-key` checkpoint says it
 * replaced (read from the last checkpoint back, so a replaced key is vouched for by its successor, never by itself).
 */
function trustedKeys(found: readonly FoundCheckpoint[], key: KeyObject): Set<string> {
  const trusted = new Set([keyFingerprint(key)]);
  for (const { checkpoint } of [...found].reverse()) {
    if (checkpoint?.previousKey === undefined) continue;
    let signer: string;
    try {
      signer = keyFingerprint(checkpoint.publicKey);
    } catch {
      continue;
    }
    if (trusted.has(signer) && checkpointSignatureHolds(checkpoint, createPublicKey(checkpoint.publicKey)))
      trusted.add(keyFingerprint(checkpoint.previousKey));
  }
  return trusted;
}

/** Whether the chain has, at the checkpoint's position, the hash it signs. */
async function hashHolds(log: ChainedLog, checkpoint: SignedCheckpoint): Promise<boolean> {
  const [event] = await log.readChain(BigInt(checkpoint.position) - 1n, 1);
  return event?.position.toString() === checkpoint.position && event.hash?.toString('hex') === checkpoint.hash;
}

const signerOf = (checkpoint: SignedCheckpoint): string | undefined => {
  try {
    return keyFingerprint(checkpoint.publicKey);
  } catch {
    return undefined;
  }
};

/**
 * The checkpoints a re-chain set aside: sealing rewrote bytes from `rechainedFrom` on and gave the chain again, so a
 * checkpoint before it of a position from there on signs a hash the chain no longer has. Only a re-chain signed by a
 * trusted key, whose own hash holds, sets them aside.
 */
async function setAside(
  log: ChainedLog,
  found: readonly FoundCheckpoint[],
  trusted: Set<string>,
): Promise<Set<number>> {
  const aside = new Set<number>();
  for (const [index, { checkpoint }] of found.entries()) {
    if (checkpoint?.rechainedFrom === undefined) continue;
    const signer = signerOf(checkpoint);
    if (signer === undefined || !trusted.has(signer)) continue;
    if (!checkpointSignatureHolds(checkpoint, createPublicKey(checkpoint.publicKey))) continue;
    if (!(await hashHolds(log, checkpoint))) continue;
    const from = BigInt(checkpoint.rechainedFrom);
    found.slice(0, index).forEach((before, earlier) => {
      if (before.checkpoint !== undefined && BigInt(before.checkpoint.position) >= from) aside.add(earlier);
    });
  }
  return aside;
}

/** The first checkpoint that fails: its signature, its key, its event, or the hash it signs against the chain's. */
async function checkCheckpoints(
  log: ChainedLog,
  found: readonly FoundCheckpoint[],
  key: KeyObject,
): Promise<{ broken: ChainBreak | undefined; signed: SignedCheckpoint | undefined }> {
  const trusted = trustedKeys(found, key);
  const aside = await setAside(log, found, trusted);
  let signed: SignedCheckpoint | undefined;
  const fail = (at: bigint, reason: string) => ({ broken: { position: at, reason }, signed });
  for (const [index, { at, eventId, checkpoint }] of found.entries()) {
    if (checkpoint === undefined) return fail(at, 'it is a checkpoint whose fields are malformed');
    const signer = signerOf(checkpoint);
    if (signer === undefined) return fail(at, 'it is a checkpoint whose public key is malformed');
    if (!trusted.has(signer))
      return fail(
        at,
        `it is a checkpoint signed by the key ${signer}, which is neither the key given (HISTORY_SIGNING_KEY, or --public-key) nor one a later checkpoint replaced`,
      );
    if (!checkpointSignatureHolds(checkpoint, createPublicKey(checkpoint.publicKey)))
      return fail(at, 'it is a checkpoint whose signature does not hold: what it signs was changed');
    if (checkpoint.id !== eventId)
      return fail(at, `it is a checkpoint signed for the event ${checkpoint.id}, copied into another`);
    if (aside.has(index)) continue;
    if (!(await hashHolds(log, checkpoint)))
      return fail(
        at,
        `it is a checkpoint of position ${checkpoint.position}, whose hash there is not the chain's: the log was changed at or before position ${checkpoint.position}`,
      );
    signed = checkpoint;
  }
  return { broken: undefined, signed };
}

/**
 * Walks the whole log; stops at the first break. Then checks every checkpoint in the proven part with `key` (none:
 * they are only counted).
 */
export async function verifyChain(log: ChainedLog, key?: KeyObject): Promise<ChainVerification> {
  const check = new ChainCheck();
  const found: FoundCheckpoint[] = [];
  for (let after = 0n; ;) {
    const page = await log.readChain(after, PAGE);
    for (const event of page) if (check.next(event) !== undefined) break;
    found.push(...checkpointsIn(page, check.provenTo));
    const last = page.at(-1);
    if (last === undefined || check.broken !== undefined) break;
    after = last.position;
  }
  const result = {
    checked: check.checked,
    provenTo: check.provenTo,
    unchained: check.unchained,
    checkpoints: found.length,
    checkpointsUnchecked: key === undefined && found.length > 0,
  };
  if (check.broken !== undefined || key === undefined) return { ...result, broken: check.broken, signed: undefined };
  return { ...result, ...(await checkCheckpoints(log, found, key)) };
}

/** Gives every event without a hash its own, in log order; safe to run again, and beside servers that append. */
export async function chainLog(log: ChainedLog): Promise<{ chained: number; lastPosition: bigint | undefined }> {
  let chained = 0;
  let lastPosition: bigint | undefined;
  for (let after = 0n; ;) {
    const page = await log.chainNext(after, PAGE);
    if (page.lastPosition === undefined) break;
    chained += page.chained;
    lastPosition = page.lastPosition;
    after = page.lastPosition;
  }
  return { chained, lastPosition };
}
