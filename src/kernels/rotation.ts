/**
 * @module kernels/rotation
 * Relative Rotation Graph (RRG) coordinates of an asset against a benchmark,
 * from two aligned daily close series.
 *
 * Julius de Kempenaer's JdK RS-Ratio and JdK RS-Momentum (RRG Research,
 * https://relativerotationgraphs.com) are trademarked and their formulas are
 * unpublished. This kernel is the open approximation used by community tools:
 * a fast/slow moving-average ratio of the relative-strength line for the
 * trend axis, and the rate of change of that ratio for the momentum axis,
 * both centred on 100 (compare the `100 × RS / mean(RS)` form in
 * VaibhavDaveDev/Relative-Rotation-Graphs and the `100 + z-score` form in
 * BennyThadikaran/RRG-Lite `src/RRG.py`). For bar `t`, with `A` the asset
 * close, `B` the benchmark close, `s` = `smoothing`, `n` = `ratioWindow`,
 * `m` = `momentumWindow`:
 *
 * ```
 * RS_t          = 100 × A_t / B_t
 * RS-Ratio_t    = 100 × SMA_s(RS)_t / SMA_n(RS)_t
 * RS-Momentum_t = 100 × RS-Ratio_t / RS-Ratio_(t−m)
 * ```
 *
 * The ratio form is chosen over the z-score form because it stays defined
 * when the RS line is flat (a z-score divides by a zero deviation), so an
 * asset identical to its benchmark sits exactly at (100, 100). Defaults
 * translate the weekly RRG convention to daily bars: `s` = 5 (one week),
 * `n` = 50 (ten weeks), `m` = 10 (two weeks). Quadrants follow RRG Research's
 * naming: leading (≥100, ≥100), weakening (≥100, <100), lagging (<100, <100),
 * improving (<100, ≥100); the clockwise rotation is
 * improving → leading → weakening → lagging.
 *
 * Lookback: the first bar with both coordinates is `n − 1 + m`.
 *
 * @example
 * const { latest } = rotationSnapshot(xlkClose, spyClose); // closes aligned by date
 * latest?.quadrant; // => 'leading' for XLK on 2023-05-31 (105.65, 104.05)
 */

export type RotationQuadrant = 'leading' | 'weakening' | 'lagging' | 'improving';

export interface RotationOptions {
  /** Bars in the short SMA of the RS line (the smoothed RS). Default 5. */
  smoothing?: number;
  /** Bars in the long SMA the smoothed RS is compared with. Default 50. */
  ratioWindow?: number;
  /** Bars over which RS-Ratio's rate of change is measured. Default 10. */
  momentumWindow?: number;
}

export interface RotationTailOptions extends RotationOptions {
  /** Points in the tail, the latest included. Default 5. */
  tailLength?: number;
  /** Bars between tail points; 5 = weekly points on daily bars. Default 5. */
  tailStep?: number;
}

export interface RotationPoint {
  /** Bar index in the input series. */
  index: number;
  rsRatio: number;
  rsMomentum: number;
  quadrant: RotationQuadrant;
}

export interface WindowPerformance {
  /** Bars in the window. */
  bars: number;
  /** Asset return over the window, percent. */
  asset: number | null;
  /** Benchmark return over the window, percent. */
  benchmark: number | null;
  /** `asset − benchmark`, percentage points. */
  relative: number | null;
}

export interface RotationSnapshot {
  /** The latest point, or `null` when the series is shorter than the lookback + 1. */
  latest: RotationPoint | null;
  /** Up to `tailLength` points `tailStep` bars apart, oldest first, ending with `latest`. */
  tail: RotationPoint[];
  performance: Record<PerformanceWindow, WindowPerformance>;
}

/** Relative-performance windows in trading days: a week, a month, a quarter. */
export const PERFORMANCE_WINDOWS = { '1w': 5, '1m': 21, '3m': 63 } as const;
export type PerformanceWindow = keyof typeof PERFORMANCE_WINDOWS;

const DEFAULTS = { smoothing: 5, ratioWindow: 50, momentumWindow: 10, tailLength: 5, tailStep: 5 };

function positiveInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`rotation: ${name} must be a positive integer, got ${value}`);
  }
  return value;
}

function resolve(opts: RotationOptions) {
  const smoothing = positiveInt('smoothing', opts.smoothing ?? DEFAULTS.smoothing);
  const ratioWindow = positiveInt('ratioWindow', opts.ratioWindow ?? DEFAULTS.ratioWindow);
  const momentumWindow = positiveInt('momentumWindow', opts.momentumWindow ?? DEFAULTS.momentumWindow);
  if (smoothing > ratioWindow) {
    throw new RangeError(`rotation: smoothing (${smoothing}) must not exceed ratioWindow (${ratioWindow})`);
  }
  return { smoothing, ratioWindow, momentumWindow };
}

/**
 * Bars needed before the first valid RRG point: `ratioWindow − 1 + momentumWindow`.
 * @throws {RangeError} on a non-integer or non-positive window, or smoothing > ratioWindow.
 * @example
 * rotationLookback(); // => 59
 */
export function rotationLookback(opts: RotationOptions = {}): number {
  const { ratioWindow, momentumWindow } = resolve(opts);
  return ratioWindow - 1 + momentumWindow;
}

function checkCloses(asset: Float64Array, benchmark: Float64Array): void {
  if (asset.length !== benchmark.length) {
    throw new RangeError(`rotation: asset has ${asset.length} bars, benchmark ${benchmark.length}; align them first`);
  }
  for (let i = 0; i < asset.length; i++) {
    const a = asset[i]!;
    const b = benchmark[i]!;
    if (!(a > 0 && b > 0 && Number.isFinite(a) && Number.isFinite(b))) {
      throw new RangeError(`rotation: closes must be finite and positive (bar ${i}: asset ${a}, benchmark ${b})`);
    }
  }
}

/**
 * Writes RS-Ratio and RS-Momentum for every bar into the caller's buffers;
 * both are `NaN` before {@link rotationLookback}. Runs in O(N) with rolling
 * sums; `test/kernels/rotation.test.ts` holds it to a naive twin.
 * @throws {RangeError} on bad options, unequal lengths, short output buffers,
 *   or a close that is not finite and positive.
 */
export function rotationSeries(
  asset: Float64Array,
  benchmark: Float64Array,
  outRatio: Float64Array,
  outMomentum: Float64Array,
  opts: RotationOptions = {},
): void {
  const { smoothing: s, ratioWindow: n, momentumWindow: m } = resolve(opts);
  checkCloses(asset, benchmark);
  const len = asset.length;
  if (outRatio.length < len || outMomentum.length < len) {
    throw new RangeError(`rotation: output buffers must hold ${len} values`);
  }
  const lookback = n - 1 + m;
  let sumShort = 0;
  let sumLong = 0;
  for (let t = 0; t < len; t++) {
    const rs = (100 * asset[t]!) / benchmark[t]!;
    sumShort += rs;
    sumLong += rs;
    if (t >= s) sumShort -= (100 * asset[t - s]!) / benchmark[t - s]!;
    if (t >= n) sumLong -= (100 * asset[t - n]!) / benchmark[t - n]!;
    outRatio[t] = t >= n - 1 ? (100 * (sumShort / s)) / (sumLong / n) : NaN;
    outMomentum[t] = t >= lookback ? (100 * outRatio[t]!) / outRatio[t - m]! : NaN;
  }
  outRatio.fill(NaN, 0, Math.min(lookback, len));
}

/**
 * The RRG quadrant of a point; a coordinate of exactly 100 counts as the upper side.
 * @throws {RangeError} when a coordinate is not finite.
 * @example
 * rotationQuadrant(101.2, 99.4); // => 'weakening'
 */
export function rotationQuadrant(rsRatio: number, rsMomentum: number): RotationQuadrant {
  if (!Number.isFinite(rsRatio) || !Number.isFinite(rsMomentum)) {
    throw new RangeError(`rotation: quadrant needs finite coordinates, got (${rsRatio}, ${rsMomentum})`);
  }
  if (rsRatio >= 100) return rsMomentum >= 100 ? 'leading' : 'weakening';
  return rsMomentum >= 100 ? 'improving' : 'lagging';
}

/**
 * Percent return of `close` over the `bars` bars ending at `end`
 * (`100 × (close[end] / close[end − bars] − 1)`), or `null` without enough history.
 * @example
 * periodReturn(new Float64Array([100, 110]), 1, 1); // => 10.000000000000009
 */
export function periodReturn(close: Float64Array, bars: number, end = close.length - 1): number | null {
  positiveInt('bars', bars);
  if (end - bars < 0 || end >= close.length) return null;
  return 100 * (close[end]! / close[end - bars]! - 1);
}

/**
 * The latest RRG point, a tail of earlier points for drawing, and the asset's
 * and benchmark's returns over 1w/1m/3m ({@link PERFORMANCE_WINDOWS}).
 * Allocates two scratch buffers of the series length.
 * @throws {RangeError} as {@link rotationSeries}, and on a bad tailLength or tailStep.
 * @example
 * const { latest, tail, performance } = rotationSnapshot(xlk, spy, { tailLength: 5 });
 * performance['3m'].relative; // => XLK's 63-bar return minus SPY's, in points
 */
export function rotationSnapshot(
  asset: Float64Array,
  benchmark: Float64Array,
  opts: RotationTailOptions = {},
): RotationSnapshot {
  const tailLength = positiveInt('tailLength', opts.tailLength ?? DEFAULTS.tailLength);
  const tailStep = positiveInt('tailStep', opts.tailStep ?? DEFAULTS.tailStep);
  const lookback = rotationLookback(opts);
  const len = asset.length;
  const ratio = new Float64Array(len);
  const momentum = new Float64Array(len);
  rotationSeries(asset, benchmark, ratio, momentum, opts);

  const tail: RotationPoint[] = [];
  for (let k = tailLength - 1; k >= 0; k--) {
    const index = len - 1 - k * tailStep;
    if (index < lookback) continue;
    const rsRatio = ratio[index]!;
    const rsMomentum = momentum[index]!;
    tail.push({ index, rsRatio, rsMomentum, quadrant: rotationQuadrant(rsRatio, rsMomentum) });
  }

  const performance = {} as Record<PerformanceWindow, WindowPerformance>;
  for (const key of Object.keys(PERFORMANCE_WINDOWS) as PerformanceWindow[]) {
    const bars = PERFORMANCE_WINDOWS[key];
    const a = periodReturn(asset, bars);
    const b = periodReturn(benchmark, bars);
    performance[key] = { bars, asset: a, benchmark: b, relative: a === null || b === null ? null : a - b };
  }
  return { latest: tail.at(-1) ?? null, tail, performance };
}
