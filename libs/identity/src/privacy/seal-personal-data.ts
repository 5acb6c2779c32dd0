// A store written before sealing, sealed: every value PERSONAL_DATA names is sealed under its person's key (or its
// month's), and the streams named by an unkeyed hash of an address, a username or a Google account take their keyed
// names, in place: same positions, ids, types and times. Each rewritten event is read back and must open to what it
// held before, or nothing is kept (docs/privacy.md, Older stores).
import { hkdfSync, randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { type PersonalKeys, SealingEventStore } from '#application';
import { PERSONAL_DATA, identifierClaimDecider, type ClaimKind } from '#domain';
import {
  PERSONAL_KEY_BYTES,
  type EventStore,
  type LogRewriter,
  type LogRewriteResult,
  type RecordedEvent,
} from '#event-store';
import { normalizeEmail, normalizeUsername } from '../user/identifiers.js';
import { legacyClaimId, PLAIN_LOG_SUBJECT, type IdentifierNames } from '../user/identifier-names.js';

export type SealPersonalDataResult = LogRewriteResult & { renamedStreams: number };

const CLAIM_KINDS: readonly ClaimKind[] = ['email', 'username', 'google'];
const PAGE = 1_000;

export class PersonalDataSealError extends Error {
  constructor(readonly position: bigint) {
    super(`The event at position ${position} does not read back as it was once sealed: nothing was changed`);
    this.name = 'PersonalDataSealError';
  }
}

/**
 * `store`: the adapter itself, below any sealing. Run with every server stopped. `resumed`: a rewriter whose run, cut
 * short, is taken up by the next (a copy into a new database), rather than undone whole (a transaction in place).
 */
export type SealPersonalDataOptions = {
  store: EventStore;
  rewriter: LogRewriter;
  keys: PersonalKeys;
  names: IdentifierNames;
  resumed?: boolean;
};

export async function sealPersonalData(options: SealPersonalDataOptions): Promise<SealPersonalDataResult> {
  const sealing = new SealingEventStore(options.store, options.keys);
  const { renames, keys } = await prepare(sealing, options);
  const keyOf = (subject: string): Promise<Buffer> => Promise.resolve(keys.get(subject) as Buffer);
  const opened = async (event: RecordedEvent, known?: ReadonlyMap<string, Buffer>): Promise<RecordedEvent> =>
    (await sealing.open([event], known))[0] as RecordedEvent;

  const result = await options.rewriter.rewrite(
    async (event) => {
      const { data, metadata } = await sealing.sealStored(event, keyOf);
      const streamId = renames.get(event.streamId) ?? event.streamId;
      if (
        streamId === event.streamId &&
        isDeepStrictEqual(data, event.data) &&
        isDeepStrictEqual(metadata, event.metadata)
      )
        return undefined;
      return { streamId, data, metadata };
    },
    async (rewritten, original) => {
      // Opened with the keys it was sealed with (an erased person's too, which no one keeps), it holds what it held.
      const [after, before] = [await opened(rewritten, keys), await opened(original)];
      const same = after.id === before.id && after.type === before.type && isDeepStrictEqual(after.data, before.data);
      const named = after.streamId === (renames.get(original.streamId) ?? original.streamId);
      if (!same || !named || !isDeepStrictEqual(after.metadata, before.metadata))
        throw new PersonalDataSealError(original.position);
    },
  );
  // Only now may the names of the older store stop being read: a crash before this point leaves them readable. The keys
  // the erased were sealed under go with the mark.
  await options.keys.erase(PLAIN_LOG_SUBJECT);
  return { ...result, renamedStreams: renames.size };
}

/**
 * Before the rewrite holds the log: every key it will need (made now; a person already erased gets one no one keeps,
 * so what the log still held of them in clear reads as erased), and every claim stream under an unkeyed name whose
 * value some event still holds (the person's own stream, or the membership that reserved an address), mapped to its
 * keyed name. A claim whose value no event holds any more is a released one: nobody signs in with it.
 */
async function prepare(sealing: SealingEventStore, options: SealPersonalDataOptions) {
  const claimStreams = new Set<string>();
  const values = new Set<string>();
  const subjects = new Set<string>();
  const claimPrefix = identifierClaimDecider.streamOf('');
  const pageAfter = (position: bigint | undefined) =>
    options.store.readAll({ ...(position === undefined ? {} : { fromPosition: position }), maxCount: PAGE });
  for (let page = await pageAfter(undefined); page.length > 0; page = await pageAfter(page.at(-1)?.position)) {
    for (const event of page) {
      if (event.streamId.startsWith(claimPrefix)) claimStreams.add(event.streamId);
      for (const subject of await sealing.subjectsToSeal(event)) subjects.add(subject);
    }
    for (const event of await sealing.open(page)) {
      for (const { field } of PERSONAL_DATA[event.type]?.fields ?? []) {
        const value = (event.data as Record<string, unknown>)[field];
        if (typeof value === 'string')
          for (const candidate of [value, normalizeEmail(value), normalizeUsername(value)]) values.add(candidate);
      }
    }
  }
  const renames = new Map<string, string>();
  for (const value of values) {
    for (const kind of CLAIM_KINDS) {
      const legacy = identifierClaimDecider.streamOf(legacyClaimId(kind, value));
      if (claimStreams.has(legacy)) renames.set(legacy, options.names.keyedStreamOf(kind, value));
    }
  }
  const keys = await options.keys.obtainAll(subjects);
  const unkept = [...subjects].filter((subject) => !keys.has(subject));
  const mark = unkept.length > 0 && options.resumed === true ? await options.keys.obtain(PLAIN_LOG_SUBJECT) : undefined;
  for (const subject of unkept)
    keys.set(subject, mark === undefined ? randomBytes(PERSONAL_KEY_BYTES) : keyNobodyKeeps(mark, subject));
  return { renames, keys };
}

/**
 * The key an erased person's values are sealed under by a rewrite that resumes: derived from the older store's mark, so
 * that a run killed part way and run again opens what it sealed before, and gone with the mark, which the run erases
 * last. Their own subject stays erased throughout, so no reader ever opens these values. In place, the rewrite is one
 * transaction, and a random key nobody keeps leaves nothing behind at all.
 */
const keyNobodyKeeps = (mark: Buffer, subject: string): Buffer =>
  Buffer.from(hkdfSync('sha256', mark, Buffer.alloc(0), `chorus sealing of erased ${subject}`, PERSONAL_KEY_BYTES));
