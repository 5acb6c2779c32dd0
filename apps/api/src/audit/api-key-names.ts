// API keys' names for the history's actor column: from the key's own stream (`api-key-<id>`, its
// ApiKeyCreated), the record of who made it. A name never changes, so it is kept once read.
import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '#event-store';
import { apiKeyStream } from '#domain';

/** Names kept at most; the least recently used goes first. */
const MAX_KEPT = 1_000;

@Injectable()
export class ApiKeyNames {
  private readonly kept = new Map<string, string>();

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /** The names of these keys that exist (a key never created is left out). */
  async namesOf(keyIds: Iterable<string>): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    for (const keyId of new Set(keyIds)) {
      const name = await this.nameOf(keyId);
      if (name !== undefined) names.set(keyId, name);
    }
    return names;
  }

  async nameOf(keyId: string): Promise<string | undefined> {
    const kept = this.kept.get(keyId);
    if (kept !== undefined) {
      this.kept.delete(keyId);
      this.kept.set(keyId, kept);
      return kept;
    }
    const read = await this.store.readStream(apiKeyStream(keyId), { maxCount: 1 });
    const created = read.found ? read.events.find((event) => event.type === 'ApiKeyCreated') : undefined;
    const name = (created?.data as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') return undefined;
    this.kept.set(keyId, name);
    if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    return name;
  }
}
