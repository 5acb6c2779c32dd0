import { describe, expect, it } from '@jest/globals';
import { replayedAppendResult } from './idempotent-replay.js';

const stored = [
  { id: 'a', revision: 3n, position: 30n },
  { id: 'b', revision: 4n, position: 31n },
];

describe('Recognising a replayed append', () => {
  it('answers the original result when every id sits where the append would put it', () => {
    expect(replayedAppendResult(['a', 'b'], stored, 3n)).toEqual({ nextExpectedRevision: 4n, position: 31n });
  });

  it('is not a replay when ids differ, are out of order, are fewer or more, or start elsewhere', () => {
    expect(replayedAppendResult(['a', 'c'], stored, 3n)).toBeUndefined();
    expect(replayedAppendResult(['b', 'a'], stored, 3n)).toBeUndefined();
    expect(replayedAppendResult(['a'], stored, 3n)).toBeUndefined();
    expect(replayedAppendResult(['a', 'b', 'c'], stored, 3n)).toBeUndefined();
    expect(replayedAppendResult(['a', 'b'], stored, 2n)).toBeUndefined();
    expect(replayedAppendResult(['a'], [], 0n)).toBeUndefined();
  });
});
