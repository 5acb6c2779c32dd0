import { describe, expect, it } from '@jest/globals';
import { makeRoom } from './bounded-map.js';

const filled = (count: number): Map<number, number> => new Map(Array.from({ length: count }, (_, i) => [i, i]));

describe('makeRoom', () => {
  it('leaves a map below its capacity as it is', () => {
    const map = filled(9);
    makeRoom(map, 10);
    expect([...map.keys()]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('deletes the oldest tenth of a full map at once, so that the next thousands of entries evict nothing', () => {
    const map = filled(1_000);
    makeRoom(map, 1_000);
    expect(map.size).toBe(900);
    expect(map.has(99)).toBe(false);
    expect(map.has(100)).toBe(true);
    for (let key = 1_000; key < 1_100; key += 1) {
      const before = map.size;
      makeRoom(map, 1_000);
      expect(map.size).toBe(before);
      map.set(key, key);
    }
    expect(map.size).toBe(1_000);
  });

  it('brings a map over its capacity back under it, and a tiny one loses one entry at a time', () => {
    const over = filled(30);
    makeRoom(over, 20);
    expect(over.size).toBe(18);
    expect(over.has(11)).toBe(false);
    expect(over.has(12)).toBe(true);
    const tiny = filled(2);
    makeRoom(tiny, 2);
    expect([...tiny.keys()]).toEqual([1]);
  });
});
