// The sealing of an EventStoreDB store: EventStoreDB keeps every event as written, so the sealed log is a copy into a
// new database, every event through the same sealing as in place, read back there and checked before the next. The
// configured database is only read; servers move to the new one afterwards (docs/privacy.md, Older stores).
import type { Config } from '#config';
import { PersonalKeys } from '#application';
import { EventStoreDbSealingCopy, type EventStoreDbCopies } from '#event-store';
import { isOlderStore, openIdentifierNames, sealPersonalData } from '#identity';
import { copyKeys, CopyRefused } from './copy-log.js';
import { openConfiguredStore, openStoreAt, type OpenedStore } from './stores.js';

export type SealCopyResult =
  /** `sealedThere`: the sealing into `to` had ended already; the keys and erasures made since were copied again. */
  | { sealed: false; from: string; to: string; sealedThere: boolean }
  | { sealed: true; from: string; to: string; examined: number; rewritten: number; renamedStreams: number };

/** A new database the copy cannot write into (EventStoreDbSealingCopy's RangeError) is a refusal naming it. */
async function refusedAsWords<T>(work: Promise<T>, targetName: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof RangeError) throw new CopyRefused(`${targetName}: ${error.message}`);
    throw error;
  }
}

/**
 * Whether an earlier run sealed the whole log into the target: its events are there and its mark of an older store is
 * gone (sealPersonalData erases it last). The old database must not have moved on since: its servers were stopped.
 */
async function sealingEnded(source: OpenedStore, target: OpenedStore): Promise<boolean> {
  if ((await target.events.headPosition()) === undefined || (await isOlderStore(target.keys, target.events)))
    return false;
  const [theirs, ours] = await Promise.all([source.lastCopied(), target.lastCopied()]);
  if (theirs?.id !== ours?.id)
    throw new CopyRefused(
      `${source.name} holds events written after it was sealed into ${target.name}: stop every server of it, and seal it again into a new, empty database`,
    );
  return true;
}

export async function sealIntoNewDatabase(config: Config, into: string): Promise<SealCopyResult> {
  if (config.eventStoreConnectionString === undefined)
    throw new CopyRefused(
      'store:seal-personal-data --into seals an EventStoreDB store by a copy into a new database; the embedded store and PostgreSQL are sealed in place: leave --into out',
    );
  if (!/^esdb(\+discover)?:\/\//.test(into))
    throw new CopyRefused('--into names the new EventStoreDB database: an esdb:// connection string');
  const source = await openConfiguredStore(config);
  try {
    const target = await openStoreAt(into);
    try {
      if (target.name === source.name)
        throw new CopyRefused(`--into names ${source.name}, the store to seal: name a new, empty database`);
      // Without making a key there: the old database is only read.
      if (!(await isOlderStore(source.keys, source.events)))
        return { sealed: false, from: source.name, to: target.name, sealedThere: false };
      const rewriter = new EventStoreDbSealingCopy(source.copyLog as EventStoreDbCopies, {
        log: target.copyLog as EventStoreDbCopies,
        store: target.events,
      });
      await refusedAsWords(rewriter.checkTarget(), target.name);
      if (await sealingEnded(source, target)) {
        await copyKeys(source.keys, target.keys, target.name);
        return { sealed: false, from: source.name, to: target.name, sealedThere: true };
      }
      // Every key goes first, so the new database opens what the old one sealed already, and the names key stays.
      await copyKeys(source.keys, target.keys, target.name);
      const keys = new PersonalKeys(target.keys);
      const names = await openIdentifierNames(keys, source.events);
      const sealed = await refusedAsWords(
        sealPersonalData({ store: source.events, rewriter, keys, names, resumed: true }),
        target.name,
      );
      // Keys made and erasures done in the old database while the copy ran.
      await copyKeys(source.keys, target.keys, target.name);
      return { sealed: true, from: source.name, to: target.name, ...sealed };
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
