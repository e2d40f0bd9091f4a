/**
 * @module providers/synthetic/rng
 * Seeded randomness for the simulator. Every stream is a pure function of the
 * seed it was built from, so a seed reproduces the market bit for bit.
 *
 * - `Rng`: xoshiro128** (Blackman & Vigna, "Scrambled linear pseudorandom
 *   number generators", ACM TOMS 2021; https://prng.di.unimi.it/xoshiro128starstar.c),
 *   its 128-bit state filled by splitmix32 so nearby seeds give unrelated streams.
 * - Normal draws by the Box–Muller transform (Box & Muller 1958), both halves used.
 * - Student-t draws by Bailey's polar method (Bailey, "Polar generation of
 *   random variates with the t-distribution", Math. Comp. 62, 1994), one
 *   power and one square root a draw.
 * - `fmix32` / `mix32`: stateless hashing (the murmur3 finaliser) for values
 *   that must be a function of coordinates, such as a quote at second t.
 *
 * @example
 * const rng = new Rng(seedFor(42, 'AAPL'));
 * rng.normal(); // the same number on every machine for seed 42 and AAPL
 */

/** The murmur3 32-bit finaliser: a bijective avalanche of `h`. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a list of integers (order matters). */
export function mix32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) h = fmix32((h ^ Math.imul(p | 0, 0x27d4eb2f)) + 0x165667b1);
  return h;
}

/** FNV-1a 32-bit hash of a string (symbols, stream names). */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return fmix32(h);
}

/** The seed of a named stream under a global seed: `seedFor(42, 'AAPL', 'daily')`. */
export function seedFor(seed: number, ...names: Array<string | number>): number {
  return mix32(seed, ...names.map((n) => (typeof n === 'number' ? n : hashString(n))));
}

const TWO_POW_32 = 4294967296;

/** A uniform in (0, 1) from 32 hashed bits (never 0, never 1). */
export function toUnit(bits: number): number {
  return ((bits >>> 0) + 0.5) / TWO_POW_32;
}

/** xoshiro128** seeded through splitmix32. */
export class Rng {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spare = 0;
  private hasSpare = false;

  constructor(seed: number) {
    let x = seed >>> 0;
    const splitmix32 = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = splitmix32();
    this.s1 = splitmix32();
    this.s2 = splitmix32();
    this.s3 = splitmix32();
  }

  /** The next 32 random bits as an unsigned integer. */
  nextUint32(): number {
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform in (0, 1). */
  uniform(): number {
    return toUnit(this.nextUint32());
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.uniform();
  }

  /** Uniform integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.uniform() * (hi - lo + 1));
  }

  /** Log-uniform in [lo, hi): scale parameters such as prices and volumes. */
  logRange(lo: number, hi: number): number {
    return lo * Math.exp(Math.log(hi / lo) * this.uniform());
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    const r = Math.sqrt(-2 * Math.log(this.uniform()));
    const theta = 2 * Math.PI * this.uniform();
    this.spare = r * Math.sin(theta);
    this.hasSpare = true;
    return r * Math.cos(theta);
  }

  /**
   * Student-t with `nu` > 2 degrees of freedom, scaled to unit variance
   * (divided by √(ν/(ν−2))), by Bailey's polar method: for (U, V) uniform on
   * the unit disc with W = U² + V², T = U·√(ν(W^(−2/ν) − 1)/W).
   */
  studentT(nu: number): number {
    for (;;) {
      const u = 2 * this.uniform() - 1;
      const v = 2 * this.uniform() - 1;
      const w = u * u + v * v;
      if (w >= 1) continue;
      const t = u * Math.sqrt((nu * (Math.pow(w, -2 / nu) - 1)) / w);
      return t * Math.sqrt((nu - 2) / nu);
    }
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
