// Personal data never reaches the log in clear: each append seals the values PERSONAL_DATA names under their
// person's or their month's key, and each read opens them again, or reads them as erased once the key is gone
// (docs/privacy.md). Below the upcasting store: upcasters see what was stored, opened.
import { randomBytes } from 'node:crypto';
import {
  PERSONAL_DATA,
  PERSONAL_METADATA,
  erasedPersonName,
  periodSubject,
  personSubject,
  PERIOD_SUBJECT_PREFIX,
} from '#domain';
import {
  ForwardingEventStore,
  type AppendResult,
  type EnvelopePart,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type LogEvent,
  type ReadAllOptions,
  type ReadLogOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeToAllOptions,
  type Subscription,
} from '#event-store';
import type { PersonalKeys } from './personal-keys-cache.js';
import { isSealed, pseudonymOf, RecentlyOpened, seal, subjectOf, unseal, type Sealed } from './sealing.js';

type Values = Record<string, unknown>;
type Readable = { streamId: string; type?: string; data: unknown; metadata?: Values };

/** What a value whose key is gone reads as, in the shape it had. */
function erased(sealed: Sealed, streamId: string): unknown {
  const subject = subjectOf(sealed);
  if (sealed.as === 'list') return [];
  if (sealed.as === 'value') return null;
  return subject.startsWith(PERIOD_SUBJECT_PREFIX) ? 'removed' : erasedPersonName(pseudonymOf(streamId, subject));
}

/**
 * Only the types PERSONAL_DATA names hold sealed data: the others' data, which a store may parse when first read, is
 * left unread.
 */
const dataMaySeal = (event: Readable): boolean => event.type === undefined || PERSONAL_DATA[event.type] !== undefined;

/** Adds the subjects of the sealed values among `values` to `subjects`; whether there was any. */
function addSubjectsOf(values: unknown, subjects: Set<string> | undefined): boolean {
  if (typeof values !== 'object' || values === null) return false;
  let found = false;
  for (const field of Object.keys(values)) {
    const value = (values as Values)[field];
    if (!isSealed(value)) continue;
    subjects?.add(subjectOf(value));
    found = true;
  }
  return found;
}

const isPlain = (event: Readable): boolean =>
  !(dataMaySeal(event) && addSubjectsOf(event.data, undefined)) && !addSubjectsOf(event.metadata, undefined);

const DATA_SEALED = 1;
const METADATA_SEALED = 2;

export class SealingEventStore extends ForwardingEventStore {
  private readonly recentlyOpened = new RecentlyOpened();

  constructor(
    inner: EventStore,
    private readonly keys: PersonalKeys,
    private readonly now: () => Date = () => new Date(),
  ) {
    super(inner);
    const byStream = inner.readLogByStream?.bind(inner);
    this.readLogByStream = byStream === undefined ? undefined : async (options) => this.opened(await byStream(options));
  }

  override async append(
    streamId: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    const period = periodSubject(this.now());
    const sealed = await Promise.all(events.map((event) => this.sealEvent(streamId, event, period)));
    const [appended] = await Promise.all([
      this.inner.append(streamId, sealed, expectedRevision),
      ...this.keysSoonNeeded(events),
    ]);
    return appended;
  }

  override async appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    const period = periodSubject(this.now());
    const sealed = await Promise.all(
      appends.map(async (part) => ({
        ...part,
        events: await Promise.all(part.events.map((event) => this.sealEvent(part.streamId, event, period))),
      })),
    );
    const [appended] = await Promise.all([
      this.inner.appendToStreams(sealed),
      ...appends.flatMap((part) => this.keysSoonNeeded(part.events)),
    ]);
    return appended;
  }

  /**
   * An event about a person that seals nothing (an address reserved for a member about to be added) makes that person's
   * key beside its own append, so that the next event, which seals, finds it made: one sync to disk waited for, not
   * two.
   */
  private keysSoonNeeded(events: readonly EventToAppend[]): Promise<unknown>[] {
    const soon: Promise<unknown>[] = [];
    for (const event of events) {
      const userId = (event.data as { userId?: unknown } | null)?.userId;
      if (typeof userId === 'string' && PERSONAL_DATA[event.type] === undefined)
        soon.push(this.keys.obtain(personSubject(userId)).catch(() => undefined));
    }
    return soon;
  }

  override async readStream(streamId: string, options?: ReadStreamOptions): Promise<ReadStreamResult> {
    const result = await this.inner.readStream(streamId, options);
    return result.found ? { found: true, events: await this.opened(result.events) } : result;
  }

  override async readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.opened(await this.inner.readAll(options));
  }

  override async readLog<P extends EnvelopePart = never>(options: ReadLogOptions<P>): Promise<LogEvent<P>[]> {
    return this.opened(await this.inner.readLog(options));
  }

  override subscribeToAll(options: SubscribeToAllOptions): Subscription {
    // Events with nothing sealed go on at once: awaiting each would slow a catch-up through millions of them.
    const onEvent = (event: RecordedEvent): Promise<void> | void =>
      isPlain(event)
        ? options.onEvent(event)
        : this.opened([event]).then(([opened]) => options.onEvent(opened as RecordedEvent));
    return this.inner.subscribeToAll({ ...options, onEvent });
  }

  /**
   * A stored event with what it holds in clear sealed under the keys of its person and of the month it was recorded in
   * (`chorus store:seal-personal-data`), each key found by `keyOf`: one for every subject `subjectsToSeal` names.
   */
  sealStored(event: RecordedEvent, keyOf: (subject: string) => Promise<Buffer>): Promise<EventToAppend> {
    return this.sealEvent(event.streamId, event, periodSubject(new Date(event.recordedAt)), keyOf);
  }

  /** The subjects whose keys sealing a stored event needs. */
  async subjectsToSeal(event: RecordedEvent): Promise<Set<string>> {
    const subjects = new Set<string>();
    await this.sealStored(event, (subject) => {
      subjects.add(subject);
      return Promise.resolve(randomBytes(32));
    });
    return subjects;
  }

  /** The events with their sealed values opened, or read as erased; `keys`: these keys before the store's. */
  open<E extends Readable>(events: E[], keys?: ReadonlyMap<string, Buffer>): Promise<E[]> {
    return this.opened(events, keys);
  }

  private async sealEvent(
    streamId: string,
    event: EventToAppend,
    period: string,
    keyOf: (subject: string) => Promise<Buffer> = (subject) => this.keys.obtain(subject),
  ): Promise<EventToAppend> {
    const personal = PERSONAL_DATA[event.type];
    const metadataFields = PERSONAL_METADATA.filter(
      (field) => event.metadata[field] !== undefined && !isSealed(event.metadata[field]),
    );
    if (personal === undefined && metadataFields.length === 0) return event;
    let data = event.data as Values;
    if (personal !== undefined) {
      const userId = personal.person?.(streamId, data);
      const sealedData: Values = { ...data };
      for (const { field, by } of personal.fields) {
        if (data[field] === undefined || isSealed(data[field])) continue;
        // A value with no one to tie it to expires with its month.
        const subject = by === 'person' && userId !== undefined ? personSubject(userId) : period;
        sealedData[field] = seal(await keyOf(subject), subject, data[field]);
      }
      data = sealedData;
    }
    const metadata = { ...event.metadata };
    for (const field of metadataFields) metadata[field] = seal(await keyOf(period), period, metadata[field]);
    return { ...event, data, metadata };
  }

  /** The events with their sealed values opened, or read as erased: one look-up of keys for the batch. */
  private async opened<E extends Readable>(events: E[], known?: ReadonlyMap<string, Buffer>): Promise<E[]> {
    // Which parts of each event hold sealed values, found once: a rebuild opens every event of the log.
    const subjects = new Set<string>();
    const sealedParts = new Uint8Array(events.length);
    events.forEach((event, index) => {
      sealedParts[index] =
        (dataMaySeal(event) && addSubjectsOf(event.data, subjects) ? DATA_SEALED : 0) |
        (addSubjectsOf(event.metadata, subjects) ? METADATA_SEALED : 0);
    });
    if (subjects.size === 0) return events;
    const missing = known === undefined ? [...subjects] : [...subjects].filter((subject) => !known.has(subject));
    const found = missing.length > 0 ? await this.keys.find(missing) : undefined;
    const keyOf = (subject: string): Buffer | undefined => known?.get(subject) ?? found?.get(subject);
    for (const subject of subjects)
      if (keyOf(subject) === undefined) {
        this.recentlyOpened.forget();
        break;
      }
    // Keys handed in (a backup's, a copy's) may not be the store's: what they open is not the store's to remember.
    const openWith =
      known === undefined ? (key: Buffer, sealed: Sealed) => this.recentlyOpened.open(key, sealed) : unseal;
    const open = (values: unknown, streamId: string): Values => {
      const opened: Values = { ...(values as Values) };
      for (const field of Object.keys(opened)) {
        const value = opened[field];
        if (!isSealed(value)) continue;
        const key = keyOf(subjectOf(value));
        opened[field] = key === undefined ? erased(value, streamId) : openWith(key, value);
      }
      return opened;
    };
    return events.map((event, index) => {
      const parts = sealedParts[index] ?? 0;
      if (parts === 0) return event;
      return {
        ...event,
        data: parts & DATA_SEALED ? open(event.data, event.streamId) : event.data,
        ...(parts & METADATA_SEALED ? { metadata: open(event.metadata, event.streamId) } : {}),
      };
    });
  }
}
