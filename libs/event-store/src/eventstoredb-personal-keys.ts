// EventStoreDB's keys: one stream per subject holding its key. Erasing tombstones the stream: it reads as deleted
// at once and can never be written again, and the server removes its bytes at the next scavenge (docs/privacy.md).
import { randomBytes, randomUUID } from 'node:crypto';
import {
  ANY,
  EventStoreDBClient,
  jsonEvent,
  NO_STREAM,
  StreamDeletedError,
  StreamNotFoundError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import {
  PERSONAL_KEY_BYTES,
  PersonalDataErasedError,
  type KeyRecord,
  type PersonalKeyStore,
} from './personal-keys.port.js';

/** Every key stream's name, and the list of subjects, begin so: none of them is an event of the log. */
export const KEY_STREAM_PREFIX = 'chorus-personal-key-';
const STREAM_PREFIX = KEY_STREAM_PREFIX;
/** Every subject a key was made for, in order: how subjects are listed by prefix without reading the whole log. */
const SUBJECTS = 'chorus-personal-key-subjects';

type KeyMade = { key: string };

export class EventStoreDbPersonalKeys implements PersonalKeyStore {
  static connect(connectionString: string): EventStoreDbPersonalKeys {
    return new EventStoreDbPersonalKeys(EventStoreDBClient.connectionString(connectionString));
  }

  private constructor(private readonly client: EventStoreDBClient) {}

  async find(subjects: readonly string[]): Promise<Map<string, Buffer>> {
    const found = await Promise.all(
      [...new Set(subjects)].map(async (subject) => [subject, await this.read(subject)] as const),
    );
    return new Map(found.filter((entry): entry is readonly [string, Buffer] => entry[1] !== undefined));
  }

  async obtainAll(subjects: readonly string[]): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    const all = [...new Set(subjects)];
    for (let from = 0; from < all.length; from += 100) {
      const part = await Promise.all(
        all
          .slice(from, from + 100)
          .map(async (subject) => [subject, await this.obtain(subject).catch(erasedAsNone)] as const),
      );
      for (const [subject, key] of part) if (key !== undefined) found.set(subject, key);
    }
    return found;
  }

  async obtain(subject: string): Promise<Buffer> {
    const key = randomBytes(PERSONAL_KEY_BYTES);
    try {
      await this.client.appendToStream(
        `${STREAM_PREFIX}${subject}`,
        jsonEvent({ id: randomUUID(), type: 'PersonalKeyMade', data: { key: key.toString('base64') } }),
        {
          expectedRevision: NO_STREAM,
        },
      );
      await this.listSubject(subject);
      return key;
    } catch (error) {
      if (error instanceof StreamDeletedError) throw new PersonalDataErasedError(subject);
      if (!(error instanceof WrongExpectedVersionError)) throw error;
    }
    const made = await this.read(subject);
    if (made === undefined) throw new PersonalDataErasedError(subject);
    return made;
  }

  async erase(subject: string): Promise<void> {
    try {
      await this.client.tombstoneStream(`${STREAM_PREFIX}${subject}`);
    } catch (error) {
      if (!(error instanceof StreamDeletedError)) throw error;
    }
    // Listed, so that a copy of the keys carries the erasure of a subject that never had a key.
    await this.listSubject(subject);
  }

  async exportKeys(afterSubject: string | undefined, maxCount: number): Promise<KeyRecord[]> {
    const listed = [...(await this.listed())].filter((subject) => afterSubject === undefined || subject > afterSubject);
    const page = listed.sort().slice(0, maxCount);
    const keys = await this.find(page);
    // EventStoreDB keeps no time of a key's making apart from its events'; an erasure's is the copy's.
    const at = new Date().toISOString();
    return page.map((subject) => ({
      subject,
      key: keys.get(subject) ?? null,
      createdAt: at,
      erasedAt: keys.has(subject) ? null : at,
    }));
  }

  async importKeys(records: readonly KeyRecord[]): Promise<void> {
    for (const { subject, key } of records) {
      if (key === null) {
        await this.erase(subject);
        continue;
      }
      try {
        await this.client.appendToStream(
          `${STREAM_PREFIX}${subject}`,
          jsonEvent({ id: randomUUID(), type: 'PersonalKeyMade', data: { key: key.toString('base64') } }),
          { expectedRevision: NO_STREAM },
        );
        await this.listSubject(subject);
      } catch (error) {
        // Held or erased here already: this store's own word stands.
        if (!(error instanceof WrongExpectedVersionError || error instanceof StreamDeletedError)) throw error;
      }
    }
  }

  private async listSubject(subject: string): Promise<void> {
    await this.client.appendToStream(
      SUBJECTS,
      jsonEvent({ id: randomUUID(), type: 'PersonalKeySubject', data: { subject } }),
      { expectedRevision: ANY },
    );
  }

  private async listed(): Promise<Set<string>> {
    const listed = new Set<string>();
    try {
      for await (const resolved of this.client.readStream<{ type: 'PersonalKeySubject'; data: { subject: string } }>(
        SUBJECTS,
      )) {
        const subject = resolved.event?.data.subject;
        if (subject !== undefined) listed.add(subject);
      }
    } catch (error) {
      // The client's errors keep Error's name: told apart by class.
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    return listed;
  }

  async subjects(prefix: string): Promise<string[]> {
    const listed = [...(await this.listed())].filter((subject) => subject.startsWith(prefix));
    const keys = await this.find(listed);
    return listed.filter((subject) => keys.has(subject)).sort();
  }

  async close(): Promise<void> {
    await this.client.dispose();
  }

  private async read(subject: string): Promise<Buffer | undefined> {
    let key: Buffer | undefined;
    try {
      // Read to its end (one event): a call left early is never finished, and dispose() would wait for it for ever.
      for await (const resolved of this.client.readStream<{ type: 'PersonalKeyMade'; data: KeyMade }>(
        `${STREAM_PREFIX}${subject}`,
        { maxCount: 1 },
      )) {
        const data = resolved.event?.data;
        if (data !== undefined) key ??= Buffer.from(data.key, 'base64');
      }
    } catch (error) {
      if (error instanceof StreamDeletedError || error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
    return key;
  }
}

function erasedAsNone(error: unknown): undefined {
  if (error instanceof PersonalDataErasedError) return undefined;
  throw error;
}
