/**
 * @module kernels/indicators/rolling
 * Rolling maximum and minimum over the last `period` bars, in O(N) with a
 * monotonic deque of bar indices (each index enters and leaves once; the
 * front is the extreme of the window). `test/kernels/indicators/rolling.test.ts`
 * holds it to a twin that scans every window.
 *
 * ```
 * max_t = max(x_(t−period+1), …, x_t)                       (current bar included)
 * max_t = max(x_(t−period), …, x_(t−1))   excludeCurrent     (Donchian channel)
 * ```
 *
 * `excludeCurrent` gives the Donchian channel the way the Turtles traded it:
 * a breakout is a price beyond the high or low of the preceding 20 days
 * (System 1) or 55 days (System 2) (Curtis Faith, "Way of the Turtle", 2007,
 * after Richard Donchian's four-week rule), so today's bar must not be part
 * of the level it breaks.
 *
 * Missing values: a window counts bars, so the output is `NaN` while a
 * non-finite value is inside it.
 *
 * Streaming: with `from`, only outputs `from..` are written. The deque is
 * rebuilt from the `period` bars before `from` (it holds exactly the window's
 * bars that no later bar of the window tops, so the rebuild is the deque the
 * whole run would hold there), in O(period). {@link extendRollingMax1d} and
 * {@link extendRollingMin1d} resume from the output before `from` instead (the
 * scan's one-bar advance): O(1) a bar, O(period) only when the extreme leaves
 * the window; the same values, since a maximum or minimum is exact.
 *
 * @example
 * const out = new Float64Array(4);
 * rollingMax1d(Float64Array.of(3, 1, 2, 5), out, { period: 2 }); // out => [NaN, 3, 2, 5]
 * rollingMax1d(Float64Array.of(3, 1, 2, 5), out, { period: 2, excludeCurrent: true }); // out => [NaN, NaN, 3, 2]
 */

export interface RollingOptions {
  /** Bars in the window, a positive integer. */
  period: number;
  /** Leave the current bar out (the window ends at the previous bar). Default false. */
  excludeCurrent?: boolean;
}

function resolve(options: RollingOptions) {
  const period = options.period;
  if (!Number.isInteger(period) || period < 1) {
    throw new RangeError(`rolling: period must be a positive integer, got ${period}`);
  }
  return { period, excludeCurrent: options.excludeCurrent === true };
}

/**
 * Index of the first valid output: `period − 1`, or `period` with `excludeCurrent`.
 * @throws {RangeError} when `period` is not a positive integer.
 * @example
 * rollingLookback({ period: 55, excludeCurrent: true }); // => 55
 */
export function rollingLookback(options: RollingOptions): number {
  const { period, excludeCurrent } = resolve(options);
  return excludeCurrent ? period : period - 1;
}

/**
 * Writes the rolling maximum of `values` into `out` (which must not be `values`).
 * `scratch` holds the deque; pass an `Int32Array` of at least `values.length`
 * (`values.length − from + period` when resuming) to allocate nothing (one
 * scratch serves any number of calls). With `from`,
 * only outputs `from..` are written (streaming: see the module comment).
 * @throws {RangeError} on a bad period, short output or scratch, or `from` past the input.
 */
export function rollingMax1d(values: Float64Array, out: Float64Array, options: RollingOptions, scratch?: Int32Array, from = 0): void {
  rollingExtreme1d(values, out, options, scratch, 1, from);
}

/** The rolling minimum; otherwise as {@link rollingMax1d}. */
export function rollingMin1d(values: Float64Array, out: Float64Array, options: RollingOptions, scratch?: Int32Array, from = 0): void {
  rollingExtreme1d(values, out, options, scratch, -1, from);
}

/** `sign` 1 keeps maxima, −1 minima (comparing `sign × x` keeps one loop for both). */
function rollingExtreme1d(
  values: Float64Array,
  out: Float64Array,
  options: RollingOptions,
  scratch: Int32Array | undefined,
  sign: number,
  from: number,
): void {
  const { period, excludeCurrent } = resolve(options);
  const n = values.length;
  if (out.length < n) throw new RangeError(`rolling: output holds ${out.length} values, input has ${n}`);
  if (!Number.isInteger(from) || from < 0 || from > n) throw new RangeError(`rolling: from must be a bar index in 0..${n}, got ${from}`);
  const first = Math.max(0, from - period); // the earliest bar the deque can hold
  const deque = scratch ?? new Int32Array(n - first);
  if (deque.length < n - first) throw new RangeError(`rolling: scratch holds ${deque.length} indices, ${n - first} bars pass through it`);
  let head = 0;
  let tail = 0;
  let lastMissing = -period - 1;
  // Resuming, the bars still in the window at `from` rebuild the deque first (no outputs written).
  for (let i = first; i < n; i++) {
    // Before bar i joins, the deque covers bars i − period .. i − 1.
    if (excludeCurrent && i >= from) out[i] = i >= period && i - lastMissing > period ? values[deque[head]!]! : NaN;
    const x = values[i]!;
    if (x - x === 0) {
      const key = sign * x;
      while (tail > head && sign * values[deque[tail - 1]!]! <= key) tail--;
      deque[tail++] = i;
    } else {
      lastMissing = i;
    }
    if (tail > head && deque[head] === i - period) head++;
    if (!excludeCurrent && i >= from) out[i] = i >= period - 1 && i - lastMissing >= period ? values[deque[head]!]! : NaN;
  }
}

/**
 * The rolling maximum for bars `from..`, carried from `out[from − 1]` (which
 * must hold this kernel's output for that bar; outputs before `from` are read,
 * never written). A new bar: the extreme of the window before, unless the bar
 * leaving it was that extreme (then the window is rescanned). The same values
 * as {@link rollingMax1d} bit for bit, ±0 ties included (the latest bar of the
 * extreme's value wins, as in the deque). Allocates nothing.
 * @throws {RangeError} on a bad period, a short output, or `from` outside 1..input length.
 */
export function extendRollingMax1d(values: Float64Array, out: Float64Array, options: RollingOptions, from: number): void {
  extendRollingExtreme1d(values, out, options, 1, from);
}

/** The rolling minimum carried from `out[from − 1]`; otherwise as {@link extendRollingMax1d}. */
export function extendRollingMin1d(values: Float64Array, out: Float64Array, options: RollingOptions, from: number): void {
  extendRollingExtreme1d(values, out, options, -1, from);
}

function extendRollingExtreme1d(values: Float64Array, out: Float64Array, options: RollingOptions, sign: number, from: number): void {
  const { period, excludeCurrent } = resolve(options);
  const n = values.length;
  if (out.length < n) throw new RangeError(`rolling: output holds ${out.length} values, input has ${n}`);
  if (!Number.isInteger(from) || from < 1 || from > n) throw new RangeError(`rolling: from must be a bar index in 1..${n}, got ${from}`);
  const shift = excludeCurrent ? 1 : 0;
  for (let i = from; i < n; i++) {
    const last = i - shift; // the window is bars last − period + 1 .. last
    const first = last - period + 1;
    if (first < 0) {
      out[i] = NaN;
      continue;
    }
    const prev = out[i - 1]!;
    const entering = values[last]!;
    // A number before means the window before (first − 1 .. last − 1) held no missing value.
    if (prev - prev === 0 && first > 0 && sign * values[first - 1]! < sign * prev) {
      out[i] = entering - entering !== 0 ? NaN : sign * entering >= sign * prev ? entering : prev;
      continue;
    }
    out[i] = windowExtreme(values, first, last, sign);
  }
}

/** The extreme of bars `first..last` (latest wins a tie, as in the deque); `NaN` when one is not a number. */
function windowExtreme(values: ArrayLike<number>, first: number, last: number, sign: number): number {
  let best = NaN;
  for (let j = first; j <= last; j++) {
    const x = values[j]!;
    if (x - x !== 0) return NaN;
    if (j === first || sign * x >= sign * best) best = x;
  }
  return best;
}

/**
 * A rolling maximum (`sign` 1) or minimum (−1) of `values` read bar by bar,
 * each read computed from the window's `period` bars (O(period)): what
 * {@link rollingMax1d} / {@link rollingMin1d} would write at that bar, bit for
 * bit (the same window, `NaN` rule and tie rule), without a stored output.
 * For a reader that needs the extreme at a few bars (the live scan reads it
 * at a handful); one that reads every bar computes the arrays instead
 * (`extremeArrays` in scan-set). `length` ends it like a `subarray` would.
 */
export class RollingExtreme {
  private readonly period: number;
  private readonly shift: number;
  constructor(
    private readonly values: Float64Array,
    options: RollingOptions,
    private readonly sign: 1 | -1,
    readonly length = values.length,
  ) {
    const { period, excludeCurrent } = resolve(options);
    this.period = period;
    this.shift = excludeCurrent ? 1 : 0;
  }

  /** The value at bar `index` (0 ≤ index < length), else `undefined` (as an array's `at` for such an index). */
  at(index: number): number | undefined {
    if (!(Number.isInteger(index) && index >= 0 && index < this.length)) return undefined;
    const last = index - this.shift;
    const first = last - this.period + 1;
    return first < 0 ? NaN : windowExtreme(this.values, first, last, this.sign);
  }

  /** The same extreme ending at bar `length − 1` (as `subarray(0, length)` of its array). */
  head(length: number): RollingExtreme {
    return new RollingExtreme(this.values, { period: this.period, excludeCurrent: this.shift === 1 }, this.sign as 1 | -1, Math.min(length, this.length));
  }
}
