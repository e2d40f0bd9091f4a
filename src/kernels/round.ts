/**
 * @module kernels/round
 * Rounds for presentation: half away from zero at `digits` decimals, with the
 * binary representation error nudged out first (`Number.EPSILON` scaled), so
 * 1.005 rounds to 1.01 as a person expects. Non-finite values pass through.
 *
 * @example
 * round(1.005, 2); // => 1.01
 * round(-2.5, 0); // => -3
 */
export function round(value: number, digits: number): number {
  if (!Number.isFinite(value)) return value;
  const scale = 10 ** digits;
  const scaled = Math.abs(value) * scale * (1 + Number.EPSILON);
  return (Math.sign(value) * Math.round(scaled)) / scale;
}

/** `round` that keeps `null` (a missing figure stays missing). */
export function roundOrNull(value: number | null, digits: number): number | null {
  return value === null ? null : round(value, digits);
}
