import { describe, expect, it } from '@jest/globals';
import { PendingRows } from './pending-rows.js';

describe('PendingRows', () => {
  it('writes in chunks, in key order, each row once', () => {
    const written: number[] = [];
    const pending = new PendingRows<number>(
      (row) => written.push(row),
      (a, b) => a - b,
    );
    for (const row of [5, 3, 9, 1, 7]) pending.push(row);

    expect(pending.flush(2)).toBe(false);
    pending.push(4);
    expect(pending.flush(2)).toBe(false);
    expect(pending.flush()).toBe(true);
    expect(pending.size).toBe(0);
    expect(written.slice(0, 2)).toEqual([1, 3]);
    expect([...written].sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 7, 9]);
  });

  it('keeps arrival order without a key order, and forgets what was discarded', () => {
    const written: string[] = [];
    const pending = new PendingRows<string>((row) => written.push(row));
    pending.push('b');
    pending.push('a');
    pending.discard();
    pending.push('c');
    pending.push('d');
    expect(pending.flush()).toBe(true);
    expect(written).toEqual(['c', 'd']);
  });
});
