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

/**
 * A 32-bit seed from a text and a base seed: FNV-1a over the text's UTF-16
 * code units (Fowler, Noll & Vo; the 32-bit offset basis 2166136261 and prime
 * 16777619 of the IETF draft "The FNV Non-Cryptographic Hash Algorithm"),
 * mixed with `seed`. It gives each item its own reproducible stream (e.g. a
 * trade's baseline draws), so the draws of one item do not depend on which
 * other items were drawn before it.
 *
 * @example
 * seededRandom(seedOf('AAPL|2020-03-02', 14)); // => the same stream on every run, whatever else is drawn
 */
export function seedOf(text: string, seed: number): number {
  let h = 2166136261 ^ (seed >>> 0);
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
