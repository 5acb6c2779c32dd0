// Random moments a crash test can draw again: mulberry32 from one seed (STORE_KILL_SEED, or a new one each run),
// printed by the test, so that a failing run can be run again with the same kills.
export type SeededRandom = { seed: number; next(): number };

export function seededRandom(fromEnvironment = process.env.STORE_KILL_SEED): SeededRandom {
  const seed = Number(fromEnvironment ?? Math.floor(Math.random() * 2 ** 32)) >>> 0;
  let state = seed;
  return {
    seed,
    next: () => {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    },
  };
}
