// The keys that seal a person's data in the log, kept apart from it: deleting a key is forgetting what it sealed,
// in every copy of the log, while the events themselves stay where they are.

export class PersonalDataErasedError extends Error {
  readonly code = 'PERSONAL_DATA_ERASED';
  constructor(readonly subject: string) {
    super(`The personal data of ${subject} was erased: nothing more is sealed for it`);
    this.name = 'PersonalDataErasedError';
  }
}

export interface PersonalKeyStore {
  /** The keys of those subjects that have one; an erased subject, or one never sealed for, has none. */
  find(subjects: readonly string[]): Promise<Map<string, Buffer>>;
  /** The subject's key, made on first use (every node gets the same one); PersonalDataErasedError once erased. */
  obtain(subject: string): Promise<Buffer>;
  /** `obtain` for many subjects at once (sealing a whole store): the keys of all but the erased ones. */
  obtainAll(subjects: readonly string[]): Promise<Map<string, Buffer>>;
  /**
   * Deletes the subject's key for good, so that nothing sealed under it opens again, and no key is made for it again.
   */
  erase(subject: string): Promise<void>;
  /** The subjects with a key whose name starts with `prefix` (the periods whose keys expire). */
  subjects(prefix: string): Promise<string[]>;
  /**
   * Every key and every erasure, in subject order, after `afterSubject`: what a backup or a copy carries. An erased
   * subject comes with no key, so that it stays erased wherever it is taken.
   */
  exportKeys(afterSubject: string | undefined, maxCount: number): Promise<KeyRecord[]>;
  /**
   * Takes keys and erasures as another store holds them: a key this store lacks is kept as it is, an erasure erases
   * the subject here too, and a subject erased here stays erased.
   */
  importKeys(records: readonly KeyRecord[]): Promise<void>;
  close(): Promise<void>;
}

/** A subject's key, or its erasure (`key` null). */
export type KeyRecord = { subject: string; key: Buffer | null; createdAt: string; erasedAt: string | null };

export const PERSONAL_KEYS = Symbol('PERSONAL_KEYS');

/** 256 random bits for AES-256-GCM. */
export const PERSONAL_KEY_BYTES = 32;
