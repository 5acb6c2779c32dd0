// The name of the stream that holds an address, a username or a Google account: a keyed hash, whose key is in the
// personal key store and never in the log, so that whoever holds a copy of the log cannot match a guessed address.
import type { PersonalKeys } from '#application';
import { identifierClaimDecider, type ClaimKind } from '#domain';
import type { EventStore, PersonalKeyStore } from '#event-store';
import { hmacHex, sha256Hex } from '../hashing.js';

/** The key of the names; its subject is no person's. */
export const IDENTIFIER_NAMES_SUBJECT = 'chorus:identifier-names';
/**
 * Present while the log still holds what a build before sealing wrote in plain form (docs/privacy.md, Older stores).
 */
export const PLAIN_LOG_SUBJECT = 'chorus:plain-log';

export class IdentifierNames {
  /**
   * `legacy`: a store written before the names were keyed, whose claims are under an unkeyed SHA-256 of the value; a
   * value
   * claimed there stays there (one stream per value, whichever node asks), and a new value is claimed under the keyed
   * name.
   */
  constructor(
    private readonly key: Buffer,
    private readonly legacy?: EventStore,
  ) {}

  /** Keyed names only, for a store that holds no legacy claim. */
  static keyed(key: Buffer): IdentifierNames {
    return new IdentifierNames(key);
  }

  get readsLegacyNames(): boolean {
    return this.legacy !== undefined;
  }

  async idOf(kind: ClaimKind, normalizedValue: string): Promise<string> {
    if (this.legacy !== undefined) {
      const old = legacyClaimId(kind, normalizedValue);
      if ((await this.legacy.readStream(identifierClaimDecider.streamOf(old), { maxCount: 1 })).found) return old;
    }
    return keyedClaimId(this.key, kind, normalizedValue);
  }

  /** The value's keyed name alone: a stable key for it, which tells nothing to whoever holds the log. */
  keyedId(kind: ClaimKind, normalizedValue: string): string {
    return keyedClaimId(this.key, kind, normalizedValue);
  }

  /** The stream of the value under the keyed name, wherever it is held today. */
  keyedStreamOf(kind: ClaimKind, normalizedValue: string): string {
    return identifierClaimDecider.streamOf(keyedClaimId(this.key, kind, normalizedValue));
  }

  async streamOf(kind: ClaimKind, normalizedValue: string): Promise<string> {
    return identifierClaimDecider.streamOf(await this.idOf(kind, normalizedValue));
  }
}

export const keyedClaimId = (key: Buffer, kind: ClaimKind, normalizedValue: string): string =>
  `${kind}-${hmacHex(key, normalizedValue)}`;
export const legacyClaimId = (kind: ClaimKind, normalizedValue: string): string =>
  `${kind}-${sha256Hex(normalizedValue)}`;

/**
 * Decided once per store, the first time this build opens it: an empty log is sealed from its first event; a log with
 * events and no key yet is an older one, marked as such until `chorus store:seal-personal-data` has rewritten it. The
 * log is looked at before the keys: an event there means some node of this build had made the key already, or an
 * older build wrote it. The mark is made before the key, so a start stopped between the two still finds it.
 */
export async function openIdentifierNames(keys: PersonalKeys, store: EventStore): Promise<IdentifierNames> {
  const { older, marked, known } = await storeAge(keys, store);
  if (older && !marked) await keys.obtain(PLAIN_LOG_SUBJECT);
  const key = known.get(IDENTIFIER_NAMES_SUBJECT) ?? (await keys.obtain(IDENTIFIER_NAMES_SUBJECT));
  return older ? new IdentifierNames(key, store) : IdentifierNames.keyed(key);
}

/** Whether the store is an older one (openIdentifierNames), read without making any key: a copy's source is only read. */
export async function isOlderStore(keys: Pick<PersonalKeyStore, 'find'>, store: EventStore): Promise<boolean> {
  return (await storeAge(keys, store)).older;
}

async function storeAge(keys: Pick<PersonalKeyStore, 'find'>, store: EventStore) {
  const empty = (await store.headPosition()) === undefined;
  const known = await keys.find([IDENTIFIER_NAMES_SUBJECT, PLAIN_LOG_SUBJECT]);
  const marked = known.has(PLAIN_LOG_SUBJECT);
  return { older: marked || (!empty && !known.has(IDENTIFIER_NAMES_SUBJECT)), marked, known };
}
