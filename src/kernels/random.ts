/**
 * @module kernels/random
 * mulberry32 (Tommy Ettinger, 2017), as bryc writes it in JavaScript
 * (github.com/bryc/code, jshash/PRNGs.md): a 32-bit state generator, uniform in
 * [0, 1). Small, fast and reproducible — a seed names the same numbers on every
 * run (baseline draws, benchmark inputs, test grids); not for anything that
 * needs to be unpredictable.
 *
 * @example
 * const rand = seededRandom(42);
 * rand(); // => the same number on every run
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
