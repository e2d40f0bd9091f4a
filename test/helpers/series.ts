/**
 * @module test/helpers/series — holding a kernel's output to its reference twin,
 * bar by bar, with the missing-value rule the kernels document.
 *
 * @example
 * expectSeries(run(close, 14), naiveRsi(Array.from(close), 14));
 */
import { expect } from 'bun:test';

/**
 * Asserts `actual` has one value per expected value: NaN where the expected one
 * is NaN, else within `tolerance` of it, relative to its size (absolute below 1).
 * A tolerance of 0 asks for equality.
 *
 * @example
 * expectSeries(Float64Array.of(NaN, 3, 4), [NaN, 3, 4 + 1e-12]); // passes at the default 1e-9
 */
export function expectSeries(actual: ArrayLike<number>, expected: ArrayLike<number>, tolerance = 1e-9): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < actual.length; i++) {
    const e = expected[i]!;
    if (Number.isNaN(e)) expect(actual[i]).toBeNaN();
    else expect(Math.abs(actual[i]! - e)).toBeLessThanOrEqual(tolerance * Math.max(1, Math.abs(e)));
  }
}

/**
 * The kernels' documented rule for missing values, applied to a twin: drop the
 * non-finite values, run the twin on what is left, and write its answers back
 * at the kept positions (NaN at the dropped ones).
 *
 * @example
 * withoutMissing(Float64Array.of(1, NaN, 3), (kept) => kept.map((x) => 2 * x)); // => [2, NaN, 6]
 */
export function withoutMissing(values: Float64Array, twin: (kept: number[]) => number[]): number[] {
  const kept: number[] = [];
  const at: number[] = [];
  values.forEach((x, i) => {
    if (Number.isFinite(x)) {
      kept.push(x);
      at.push(i);
    }
  });
  const out: number[] = Array.from(values, () => NaN);
  twin(kept).forEach((y, k) => (out[at[k]!] = y));
  return out;
}
