import { describe, expect, it } from '@jest/globals';
import type { FoldedStream } from './load-stream.js';
import { FoldedStateCache } from './folded-state-cache.js';

const folded = (revision: number): FoldedStream<string> => ({
  state: `state at ${revision}`,
  revision: BigInt(revision),
  position: BigInt(revision),
});

describe('FoldedStateCache', () => {
  it('answers what it remembered, per stream', () => {
    const cache = new FoldedStateCache<string>(10);
    cache.remember('organization-a', folded(3));
    cache.remember('organization-b', folded(7));

    expect(cache.get('organization-a')?.revision).toBe(3n);
    expect(cache.get('organization-b')?.revision).toBe(7n);
    expect(cache.get('organization-c')).toBeUndefined();
  });

  it('keeps the newer fold when an older one arrives late', () => {
    const cache = new FoldedStateCache<string>(10);
    cache.remember('organization-a', folded(5));
    cache.remember('organization-a', folded(4));

    expect(cache.get('organization-a')?.revision).toBe(5n);
  });

  it('holds at most its capacity, evicting the least recently used stream', () => {
    const cache = new FoldedStateCache<string>(2);
    cache.remember('organization-a', folded(1));
    cache.remember('organization-b', folded(1));
    cache.get('organization-a');
    cache.remember('organization-c', folded(1));

    expect(cache.size).toBe(2);
    expect(cache.get('organization-b')).toBeUndefined();
    expect(cache.get('organization-a')).toBeDefined();
    expect(cache.get('organization-c')).toBeDefined();
  });

  it('forgets a stream on request', () => {
    const cache = new FoldedStateCache<string>(2);
    cache.remember('organization-a', folded(1));
    cache.forget('organization-a');

    expect(cache.get('organization-a')).toBeUndefined();
  });
});
