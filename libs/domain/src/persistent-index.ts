// A unique key's index for a fold's persistent maps (Immutable.js): key -> the id holding it. The decisions keep each
// key unique, but a fold keeps whatever the log says: a key given to several holds the set of them, so one leaving
// leaves the other found.
import type { Map as PersistentMap } from 'immutable';
import { OrderedSet } from 'immutable';

/** One id, as every key has while the decisions keep it unique; a set only where the log gave the key to several. */
export type Holders = string | OrderedSet<string>;
export type UniqueIndex = PersistentMap<string, Holders>;

export const firstHolder = (holders: Holders | undefined): string | undefined =>
  holders === undefined || typeof holders === 'string' ? holders : holders.first();

export const allHolders = (holders: Holders | undefined): string[] =>
  holders === undefined ? [] : typeof holders === 'string' ? [holders] : [...holders];

/**
 * The index after `id`'s key changed from `before` to `after` (undefined: none). A mutable map (inside
 * `withMutations`) is changed in place; a persistent one is returned changed.
 */
export function movedKey(
  index: UniqueIndex,
  before: string | undefined,
  after: string | undefined,
  id: string,
): UniqueIndex {
  if (before === after) return index;
  let changed = index;
  if (before !== undefined) {
    const holders = withoutHolder(changed.get(before), id);
    changed = holders === undefined ? changed.delete(before) : changed.set(before, holders);
  }
  if (after !== undefined) changed = changed.set(after, withHolder(changed.get(after), id));
  return changed;
}

const withHolder = (holders: Holders | undefined, id: string): Holders =>
  holders === undefined || holders === id
    ? id
    : (typeof holders === 'string' ? OrderedSet([holders]) : holders).add(id);

const withoutHolder = (holders: Holders | undefined, id: string): Holders | undefined => {
  if (holders === undefined || holders === id) return undefined;
  if (typeof holders === 'string') return holders;
  const left = holders.delete(id);
  return left.size === 0 ? undefined : left.size === 1 ? firstHolder(left) : left;
};

/** Entries in the order of their places: a map keeps no order, and a listing is read far less often than it changes. */
export const inPlaceOrder = <Entry extends { readonly place: number }>(entries: Iterable<Entry>): Entry[] =>
  [...entries].sort((a, b) => a.place - b.place);
