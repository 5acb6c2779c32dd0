// Each node keeps the keys it used for a few seconds: a key erased on another node stops opening here within
// that time (KEY_CACHE_MS), and one erased here at once.
import type { PersonalKeyStore } from '#event-store';

export const KEY_CACHE_MS = 5_000;

type Cached = { key: Buffer | undefined; until: number };

export class PersonalKeys {
  private readonly cached = new Map<string, Cached>();

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
    if (missing.length > 0) {
      const read = await this.store.find(missing);
      for (const subject of missing) {
        const key = read.get(subject);
        this.remember(subject, key, now);
        if (key !== undefined) found.set(subject, key);
      }
    }
    return found;
  }

  /** The subject's key, made when it has none; PersonalDataErasedError once erased. */
  async obtain(subject: string): Promise<Buffer> {
    const now = this.now();
    const entry = this.cached.get(subject);
    if (entry?.key !== undefined && entry.until > now) return entry.key;
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

  async erase(subject: string): Promise<void> {
    await this.store.erase(subject);
    this.remember(subject, undefined, this.now());
  }

  subjects(prefix: string): Promise<string[]> {
    return this.store.subjects(prefix);
  }

  close(): Promise<void> {
    return this.store.close();
  }

  private remember(subject: string, key: Buffer | undefined, now: number): void {
    if (this.cached.size >= this.maxCached) this.cached.delete(this.cached.keys().next().value as string);
    this.cached.delete(subject);
    this.cached.set(subject, { key, until: now + this.cacheMs });
  }
}
