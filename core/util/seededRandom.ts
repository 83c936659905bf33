/**
 * A random number source that a seed makes repeatable: the emulator's identifiers and demo traffic under
 * `--seed`, and the tests that generate edits or specs at random, so a failure found once can be found again.
 */

/** Numbers in [0, 1), as Math.random gives them. */
export type Random = () => number;

/** mulberry32: tiny, fast and good enough to make seeded runs reproducible. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
