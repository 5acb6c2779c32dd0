// Each node keeps the keys it used for a few seconds: a key erased on another node stops opening here within
// that time (KEY_CACHE_MS), and one erased here at once.
import { randomUUID } from 'node:crypto';
import { personSubject } from '#domain';
import type { PersonalKeyStore } from '#event-store';
import { makeRoom } from '../bounded-map.js';

export const KEY_CACHE_MS = 5_000;
/** New people's ids made ahead at once, each with its key: one commit of the key store for this many newcomers. */
export const PEOPLE_MADE_AHEAD = 64;

type Cached = { key: Buffer | undefined; until: number };

export class PersonalKeys {
  private readonly cached = new Map<string, Cached>();
  /** Ids whose keys are made and that no one has been given yet. */
  private readonly ahead: string[] = [];
  private making: Promise<void> | undefined;
  /** Keys being read from the store, by subject: a second reader of the same subject waits for the same query. */
  private readonly finding = new Map<string, Promise<Map<string, Buffer>>>();
  /** Subjects erased through this node: a read begun before the erasure must not cache or give their key. */
  private readonly erasedHere = new Map<string, true>();

  constructor(
    private readonly store: PersonalKeyStore,
    private readonly now: () => number = Date.now,
    private readonly cacheMs = KEY_CACHE_MS,
    private readonly maxCached = 100_000,
  ) {}

  /** The keys of those subjects that have one (an erased subject has none). */
  async find(subjects: Iterable<string>): Promise<Map<string, Buffer>> {
    const found = new Map<string, Buffer>();
    const missing: string[] = [];
    const now = this.now();
    for (const subject of new Set(subjects)) {
      const entry = this.cached.get(subject);
      if (entry === undefined || entry.until <= now) missing.push(subject);
      else if (entry.key !== undefined) found.set(subject, entry.key);
    }
    if (missing.length === 0) return found;
    // Readers of one event (a node's read models and reactions) ask for its subjects at the same moment: one query.
    const toRead = missing.filter((subject) => !this.finding.has(subject));
    if (toRead.length > 0) {
      const reading = this.store.find(toRead).then((keys) => {
        for (const subject of toRead) if (!this.erasedHere.has(subject)) this.remember(subject, keys.get(subject), now);
        return keys;
      });
      const done = () => {
        for (const subject of toRead) if (this.finding.get(subject) === reading) this.finding.delete(subject);
      };
      reading.then(done, done);
      for (const subject of toRead) this.finding.set(subject, reading);
    }
    const readings = missing.map((subject) => [subject, this.finding.get(subject)] as const);
    for (const [subject, reading] of readings) {
      const key = (await reading)?.get(subject);
      if (key !== undefined && !this.erasedHere.has(subject)) found.set(subject, key);
    }
    return found;
  }

  /** The subject's key, made when it has none; PersonalDataErasedError once erased. */
  async obtain(subject: string): Promise<Buffer> {
    const now = this.now();
    const entry = this.cached.get(subject);
    if (entry?.key !== undefined && entry.until > now) {
      // A key made ahead is held only until its person is first recorded; from then on it may be erased anywhere.
      if (entry.until === Number.POSITIVE_INFINITY) this.remember(subject, entry.key, now);
      return entry.key;
    }
    const key = await this.store.obtain(subject);
    this.remember(subject, key, now);
    return key;
  }

  /** The keys of many subjects, made when they have none (sealing a whole store); erased subjects have none. */
  async obtainAll(subjects: Iterable<string>): Promise<Map<string, Buffer>> {
    const keys = await this.store.obtainAll([...subjects]);
    const now = this.now();
    for (const [subject, key] of keys) this.remember(subject, key, now);
    return keys;
  }

  /**
   * The id of a person Chorus has not met yet, whose key is already made (in a batch, ahead of need): the command that
   * records them seals their data without a commit of the key store of its own. An id handed out and never used is a
   * key no event names.
   */
  async newPerson(): Promise<string> {
    for (;;) {
      const id = this.ahead.pop();
      if (id !== undefined) return id;
      this.making ??= this.makeAhead().finally(() => (this.making = undefined));
      await this.making;
    }
  }

  /** An id from newPerson that the command did not give anyone (the address had an id already): the next one's. */
  giveBack(id: string): void {
    if (this.cached.get(personSubject(id))?.until === Number.POSITIVE_INFINITY) this.ahead.push(id);
  }

  private async makeAhead(): Promise<void> {
    const ids = Array.from({ length: PEOPLE_MADE_AHEAD }, () => randomUUID());
    const keys = await this.store.obtainAll(ids.map(personSubject));
    for (const id of ids) {
      const key = keys.get(personSubject(id));
      // Held until first used, not for the cache's few seconds: no one has the id yet, so no one can have erased it.
      if (key === undefined) continue;
      this.cached.set(personSubject(id), { key, until: Number.POSITIVE_INFINITY });
      this.ahead.push(id);
    }
  }

  async erase(subject: string): Promise<void> {
    await this.store.erase(subject);
    // A read of the key begun before the erasure must not bring it back into the cache.
    this.erasedHere.delete(subject);
    makeRoom(this.erasedHere, this.maxCached);
    this.erasedHere.set(subject, true);
    this.remember(subject, undefined, this.now());
  }

  subjects(prefix: string): Promise<string[]> {
    return this.store.subjects(prefix);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private remember(subject: string, key: Buffer | undefined, now: number): void {
    this.cached.delete(subject);
    makeRoom(this.cached, this.maxCached);
    this.cached.set(subject, { key, until: now + this.cacheMs });
  }
}
