// Finding one item of a fold's array by a key without a pass over the array each time: a create in a directory of
// 10,000 looked through every user and member several times, and the directory slowed with each person it held
// (bench/scim). A fold is an immutable value, so a lookup made for an array never goes stale. Folds mostly grow by
// one item at the end, into a new array, so an array that begins with every item of the one looked up before it
// shares that one's lookup, extended by its new items, instead of building its own.

type Shared<T> = {
  /** Each key's first index in the tip; every array sharing the lookup begins with the tip's items. */
  readonly firstIndex: Map<string, number>;
  /** The longest array the lookup covers: only an array that begins with all of its items may extend it. */
  tip: readonly T[];
};

/** The first item with each key; items without one (undefined) are not found. */
export function lookupBy<T extends object>(
  keyOf: (item: T) => string | undefined,
): <U extends T>(items: readonly U[], key: string) => U | undefined {
  const lookups = new WeakMap<readonly T[], Shared<T>>();
  // By the array's first item: the fold an array was grown from began with the same one (another organization's did
  // not).
  const latest = new WeakMap<T, Shared<T>>();

  const grows = (items: readonly T[], tip: readonly T[]): boolean => {
    if (items.length < tip.length) return false;
    for (let position = 0; position < tip.length; position += 1) if (items[position] !== tip[position]) return false;
    return true;
  };

  const lookupOf = (items: readonly T[], first: T): Shared<T> => {
    const known = lookups.get(items);
    if (known !== undefined) return known;
    const grown = latest.get(first);
    const shared =
      grown !== undefined && grows(items, grown.tip) ? grown : { firstIndex: new Map<string, number>(), tip: [] };
    for (let position = shared.tip.length; position < items.length; position += 1) {
      const key = keyOf(items[position] as T);
      if (key !== undefined && !shared.firstIndex.has(key)) shared.firstIndex.set(key, position);
    }
    shared.tip = items;
    lookups.set(items, shared);
    latest.set(first, shared);
    return shared;
  };

  return <U extends T>(items: readonly U[], key: string): U | undefined => {
    const first = items[0];
    if (first === undefined) return undefined;
    const position = lookupOf(items, first).firstIndex.get(key);
    // Past the end of a shorter array that shares the lookup: an item added after it, so not found.
    return position === undefined ? undefined : items[position];
  };
}
