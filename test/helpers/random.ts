/**
 * @module test/helpers/random — reproducible random inputs for the reference-twin
 * grids and the Monte Carlo checks: one seeded generator and one price walk, so a
 * seed names the same numbers in every test file.
 *
 * @example
 * const close = randomWalk(seededRandom(11), 700); // 700 closes from 100, ±2% a bar
 */

/** The generator of src/kernels/random (mulberry32). */
export { seededRandom } from '../../src/kernels/random';

/**
 * A geometric random walk of closes: price_i = price_{i−1} × e^(drift + u),
 * u uniform in [−0.02, 0.02), starting from `start` (the first close is one step
 * from it).
 *
 * @example
 * randomWalk(seededRandom(1), 3, 50); // => Float64Array of 3 closes near 50
 */
export function randomWalk(rand: () => number, length: number, start = 100, drift = 0): Float64Array {
  const out = new Float64Array(length);
  let price = start;
  for (let i = 0; i < length; i++) {
    price *= Math.exp(drift + (rand() - 0.5) * 0.04);
    out[i] = price;
  }
  return out;
}
