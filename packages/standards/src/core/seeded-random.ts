/** A generator of numbers in [0, 1), like Math.random. */
export type Rng = () => number;

/**
 * mulberry32: a small seeded PRNG with a full 2^32 period, for fuzz tests that pick inputs at
 * random yet can replay a failure from its seed.
 */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
