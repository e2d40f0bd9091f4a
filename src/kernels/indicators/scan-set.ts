/**
 * @module kernels/indicators/scan-set
 * The indicators a breakout scan reads (the detectors, the trend template,
 * scoring, the lifecycle and the market regime), kept incrementally: a
 * {@link ScanIndicatorState} remembers where every kernel stopped, and
 * {@link extendScanIndicators} computes only the bars appended since. A
 * series extended bar by bar, or in any pieces, holds bit for bit the values
 * of {@link computeIndicators} over the whole series
 * (`test/kernels/indicators/streaming.test.ts`), because each kernel carries
 * its running sums instead of rebuilding them, and the value at bar `i` reads
 * bars `0..i` only.
 *
 * The state is a flat list of numbers ({@link SCAN_STATE_WORDS}), so it can
 * live in shared memory beside the bars (store/scan-state) and be advanced by
 * whichever worker thread scans the symbol next.
 *
 * @example
 * const set = allocateScanIndicators(capacity);
 * const state = scanIndicatorState();
 * extendScanIndicators(bars, set, state); // bars 0..n−1
 * extendScanIndicators(longerBars, set, state); // only the appended bars are computed
 */
import { atr1d, atrState, type AtrState } from './atr';
import { bollingerState, bollingerWidth1d, percentileRank1d, type BollingerState } from './bollinger';
import type { Ohlcv } from '../ohlcv';
import { extendRollingMax1d, extendRollingMin1d, RollingExtreme, rollingMax1d, rollingMin1d, type RollingOptions } from './rolling';
import type { IndicatorSet } from './set';
import { sma1d, smaState, type SmaState } from './sma';
import { averageVolume1d } from './volume';

/** The members a running state carries (and the percentile of one of them), in the order their arrays sit in a block. */
export const STATEFUL_SCAN_INDICATORS = ['sma50', 'sma150', 'sma200', 'atr14', 'avgVolume50', 'bbWidth20', 'bbWidthPercentile'] as const satisfies readonly (keyof IndicatorSet)[];

/**
 * The rolling extremes of the set: each value is some bar's high or low, and
 * {@link rollingExtremes} computes all of them over N bars in O(N) with no
 * state, so the bar store keeps only the stateful members and a reader
 * computes these when it reads (issue 13: six columns of history a series
 * fewer in shared memory).
 */
export const EXTREME_SCAN_INDICATORS = ['high252', 'low252', 'donchianHigh55', 'donchianLow55', 'donchianHigh20', 'donchianLow20'] as const satisfies readonly (keyof IndicatorSet)[];

/** The members of {@link ScanIndicatorSet}, in the order their arrays sit in a block. */
export const SCAN_INDICATORS = [...STATEFUL_SCAN_INDICATORS, ...EXTREME_SCAN_INDICATORS] as const;

/** Every member of the set as an array (what {@link computeScanIndicators} gives). */
export type ScanIndicatorArrays = Pick<IndicatorSet, (typeof SCAN_INDICATORS)[number]>;

/**
 * The part of {@link IndicatorSet} a scan reads. A detector that needs another
 * indicator fails to compile until it is listed here (and kept incrementally).
 * The rolling extremes are read with `at(i)`: arrays, or (from the bar store)
 * {@link RollingExtreme}s computed at the bars read.
 */
export type ScanIndicatorSet = Pick<IndicatorSet, (typeof STATEFUL_SCAN_INDICATORS)[number]> & Record<(typeof EXTREME_SCAN_INDICATORS)[number], Float64Array | RollingExtreme>;

/** Where every kernel of the set stopped; `next` is the first bar not yet computed. */
export interface ScanIndicatorState {
  next: number;
  sma50: SmaState;
  sma150: SmaState;
  sma200: SmaState;
  avgVolume50: SmaState;
  atr14: AtrState;
  bbWidth20: BollingerState;
}

const BOLLINGER = { period: 20, multiplier: 2 };

/** The state before the first bar. */
export function scanIndicatorState(): ScanIndicatorState {
  return { next: 0, sma50: smaState(), sma150: smaState(), sma200: smaState(), avgVolume50: smaState(), atr14: atrState(), bbWidth20: bollingerState(BOLLINGER) };
}

/** A deep copy (a provisional bar is computed on a copy, so the state itself stays at the last final bar). */
export function copyScanIndicatorState(s: ScanIndicatorState): ScanIndicatorState {
  return { next: s.next, sma50: { ...s.sma50 }, sma150: { ...s.sma150 }, sma200: { ...s.sma200 }, avgVolume50: { ...s.avgVolume50 }, atr14: { ...s.atr14 }, bbWidth20: { ...s.bbWidth20 } };
}

/** Numbers {@link packScanState} writes: `next`, then each kernel's running values. */
export const SCAN_STATE_WORDS = 17;

/** Writes the state into `words[offset …]` ({@link SCAN_STATE_WORDS} numbers, in the order below). */
export function packScanState(s: ScanIndicatorState, words: Float64Array, offset = 0): void {
  words.set(
    [
      s.next,
      s.sma50.sum, s.sma50.missing,
      s.sma150.sum, s.sma150.missing,
      s.sma200.sum, s.sma200.missing,
      s.avgVolume50.sum, s.avgVolume50.missing,
      s.atr14.seen, s.atr14.sum, s.atr14.atr, s.atr14.prevClose,
      s.bbWidth20.missing, s.bbWidth20.slides, s.bbWidth20.mean, s.bbWidth20.m2,
    ],
    offset,
  );
}

/** Reads a state written by {@link packScanState}. */
export function unpackScanState(words: Float64Array, offset = 0): ScanIndicatorState {
  const w = (k: number) => words[offset + k]!;
  const next = w(0);
  const sma = (k: number): SmaState => ({ next, sum: w(k), missing: w(k + 1) });
  return {
    next,
    sma50: sma(1),
    sma150: sma(3),
    sma200: sma(5),
    avgVolume50: sma(7),
    atr14: { next, seen: w(9), sum: w(10), atr: w(11), prevClose: w(12) },
    bbWidth20: { next, missing: w(13), slides: w(14), mean: w(15), m2: w(16) },
  };
}

/**
 * Views over one block of `capacity` bars per member of `members` (`block`
 * holds `members.length × capacity` doubles, in that order), each `length` long.
 */
export function scanIndicatorViews<K extends (typeof SCAN_INDICATORS)[number]>(block: Float64Array, capacity: number, length: number, members: readonly K[]): Pick<ScanIndicatorArrays, K> {
  const set = {} as Pick<ScanIndicatorArrays, K>;
  members.forEach((name, k) => {
    set[name] = block.subarray(k * capacity, k * capacity + length);
  });
  return set;
}

/** A set with room for `capacity` bars (one allocation). */
export function allocateScanIndicators(capacity: number): ScanIndicatorArrays {
  return scanIndicatorViews(new Float64Array(SCAN_INDICATORS.length * capacity), capacity, capacity, SCAN_INDICATORS);
}

/** The first `length` values of every member, as views (nothing later can be read through them). */
export function headIndicators<T extends ScanIndicatorSet>(set: T, length: number): T {
  const out = {} as Record<string, Float64Array | RollingExtreme>;
  for (const name of SCAN_INDICATORS) {
    const member = set[name];
    out[name] = member instanceof RollingExtreme ? member.head(length) : member.subarray(0, length);
  }
  return out as T;
}

const EXTREMES: Record<(typeof EXTREME_SCAN_INDICATORS)[number], [high: boolean, options: RollingOptions]> = {
  high252: [true, { period: 252 }],
  low252: [false, { period: 252 }],
  donchianHigh55: [true, { period: 55, excludeCurrent: true }],
  donchianLow55: [false, { period: 55, excludeCurrent: true }],
  donchianHigh20: [true, { period: 20, excludeCurrent: true }],
  donchianLow20: [false, { period: 20, excludeCurrent: true }],
};

/**
 * The rolling extremes of `bars` as {@link RollingExtreme}s: nothing computed
 * until a bar is read, O(period) a read (the bar store keeps no history of
 * them; a live scan reads them at a handful of bars).
 */
export function lazyExtremes(bars: Pick<Ohlcv, 'high' | 'low'>): Record<(typeof EXTREME_SCAN_INDICATORS)[number], RollingExtreme> {
  const out = {} as Record<(typeof EXTREME_SCAN_INDICATORS)[number], RollingExtreme>;
  for (const name of EXTREME_SCAN_INDICATORS) {
    const [high, options] = EXTREMES[name];
    out[name] = new RollingExtreme(high ? bars.high : bars.low, options, high ? 1 : -1);
  }
  return out;
}

/**
 * `set` with its rolling extremes as arrays over `bars` (O(bars) once; the
 * same values): for a reader that reads them at every bar (a backtest, the
 * replay). A set whose extremes are arrays is given back as it is.
 */
export function extremeArrays(bars: Pick<Ohlcv, 'high' | 'low'>, set: ScanIndicatorSet): ScanIndicatorArrays {
  if (EXTREME_SCAN_INDICATORS.every((name) => set[name] instanceof Float64Array)) return set as ScanIndicatorArrays;
  const n = set.sma50.length;
  const arrays = scanIndicatorViews(new Float64Array(EXTREME_SCAN_INDICATORS.length * n), n, n, EXTREME_SCAN_INDICATORS);
  rollingExtremes({ high: bars.high.subarray(0, n), low: bars.low.subarray(0, n) }, arrays);
  return { ...set, ...arrays };
}

/** The kernels that carry a running state, over the columns' bars from where `state` stopped. */
function advanceStateful(high: Float64Array, low: Float64Array, close: Float64Array, volume: Float64Array, set: StatefulScanIndicatorSet, state: ScanIndicatorState): void {
  sma1d(close, set.sma50, { period: 50 }, state.sma50);
  sma1d(close, set.sma150, { period: 150 }, state.sma150);
  sma1d(close, set.sma200, { period: 200 }, state.sma200);
  atr1d(high, low, close, set.atr14, { period: 14 }, state.atr14);
  bollingerWidth1d(close, set.bbWidth20, BOLLINGER, state.bbWidth20);
  averageVolume1d(volume, set.avgVolume50, { period: 50 }, state.avgVolume50);
  state.next = close.length;
}

/**
 * Computes every member for bars `state.next .. bars.close.length − 1` and
 * moves the state over the first `commit` bars (default all): O(new bars)
 * (the rolling extremes carry on from their values before `state.next`, and
 * rescan a window only when its extreme leaves it). Bars past `commit` (a
 * forming bar a later write may revise) get their values from a copy of the
 * state, which stays where the committed bars end. The arrays of `set` must
 * hold at least `bars.close.length` values, and the values this function
 * wrote for the bars before `state.next` (the band width's percentile and the
 * extremes read them).
 * @throws {RangeError} when the state is past `commit` or `commit` past the bars, or from the kernels (short outputs, unequal columns).
 */
export function extendScanIndicators(bars: Ohlcv, set: ScanIndicatorArrays, state: ScanIndicatorState, commit = bars.close.length): void {
  const from = state.next;
  extendStatefulScanIndicators(bars, set, state, commit);
  if (from < bars.close.length) rollingExtremes(bars, set, from);
}

/** The members of {@link STATEFUL_SCAN_INDICATORS}. */
export type StatefulScanIndicatorSet = Pick<ScanIndicatorSet, (typeof STATEFUL_SCAN_INDICATORS)[number]>;

/**
 * {@link extendScanIndicators} for the {@link STATEFUL_SCAN_INDICATORS} only
 * (what the bar store keeps; the extremes come from {@link rollingExtremes}).
 * @throws {RangeError} as {@link extendScanIndicators}.
 */
export function extendStatefulScanIndicators(bars: Ohlcv, set: StatefulScanIndicatorSet, state: ScanIndicatorState, commit = bars.close.length): void {
  const { high, low } = bars;
  const n = bars.close.length;
  const from = state.next;
  if (!(Number.isInteger(commit) && from <= commit && commit <= n)) throw new RangeError(`scan indicators: state at bar ${from} cannot commit through ${commit} of ${n} bars`);
  if (from === n) return;
  const { close, volume } = bars;
  // The committed bars (views over the four columns the kernels read), then the rest on a copy of the state.
  const head = (column: Float64Array) => (commit < n ? column.subarray(0, commit) : column);
  advanceStateful(head(high), head(low), head(close), head(volume), set, state);
  if (commit < n) advanceStateful(high, low, close, volume, set, copyScanIndicatorState(state));
  // The rest are read back from the bars and the band width, from `from` on.
  percentileRank1d(set.bbWidth20.length === n ? set.bbWidth20 : set.bbWidth20.subarray(0, n), set.bbWidthPercentile, { period: 126 }, from);
}

/**
 * Writes the rolling extremes ({@link EXTREME_SCAN_INDICATORS}) for bars
 * `from .. bars.close.length − 1`: resuming (`from` > 0) they carry on from
 * their values before `from` (O(1) a bar), which must be there; from bar 0,
 * the deque (O(N), nothing read from `set`).
 * @throws {RangeError} from the kernels (short outputs).
 */
export function rollingExtremes(bars: Pick<Ohlcv, 'high' | 'low'>, set: Pick<ScanIndicatorArrays, (typeof EXTREME_SCAN_INDICATORS)[number]>, from = 0): void {
  const { high, low } = bars;
  const n = high.length;
  const scratch = from > 0 ? undefined : new Int32Array(n);
  const max = (values: Float64Array, out: Float64Array, options: RollingOptions) => (scratch ? rollingMax1d(values, out, options, scratch) : extendRollingMax1d(values, out, options, from));
  const min = (values: Float64Array, out: Float64Array, options: RollingOptions) => (scratch ? rollingMin1d(values, out, options, scratch) : extendRollingMin1d(values, out, options, from));
  for (const name of EXTREME_SCAN_INDICATORS) {
    const [isHigh, options] = EXTREMES[name];
    (isHigh ? max : min)(isHigh ? high : low, set[name], options);
  }
}

/** The whole set over `bars`, computed at once (what the incremental form must equal). */
export function computeScanIndicators(bars: Ohlcv): ScanIndicatorArrays {
  const n = bars.close.length;
  const set = allocateScanIndicators(n);
  extendScanIndicators(bars, set, scanIndicatorState());
  return set;
}
