/**
 * Worker entry points of the walk-forward backtest (src/jobs/backtest.ts):
 * each reads the shared bar store (zero copy) and calls kernels/backtest.
 *
 * - `walkForward`: one symbol, start to finish (signals at each bar with the
 *   benchmark's market regime, candidates, the evaluation);
 * - a universe run in four steps: `backtestCrossSection` (each symbol's RS
 *   score and 50-bar standing at every bar of the calendar), `backtestRegimes`
 *   (the benchmark's regime at every bar, with the universe's breadth),
 *   `backtestCandidates` (per batch of symbols: signals with their RS rank
 *   and the regime, candidates), `backtestEvaluate` (the folds over every
 *   symbol's candidates).
 *
 * Every bar a task reads is at or before `endTs`; each symbol's fingerprint
 * is the SHA-256 of exactly those bars.
 */
import { createHash } from 'node:crypto';
import type { RegimeReading } from '../src/domain/signal';
import {
  candidateTrades,
  evaluateWalkForward,
  periodFolds,
  signalsAtEachBar,
  type CandidateTrade,
  type Costs,
  type Evaluation,
  type EvaluationOptions,
  type Fold,
} from '../src/kernels/backtest';
import { computeScanIndicators, extremeArrays, type ScanIndicatorSet } from '../src/kernels/indicators';
import { headBars, OHLCV_COLUMNS, type Ohlcv } from '../src/kernels/ohlcv';
import { marketRegime } from '../src/kernels/regime';
import { withScanInputs, type StoreHandle } from '../src/store';
import { standingOn, symbolStats } from './scan';
import { indexAtOrBefore, store } from './store';

/** The walk-forward settings, in bars and dollars. */
export interface WalkForwardParams {
  months: number;
  train: number;
  test: number;
  purge: number;
  embargo: number;
  /** Time stop, in bars after the entry bar. */
  maxHold: number;
  costs: Costs;
  capital: number;
  maxPositions: number;
  minTrainTrades: number;
  trials?: number;
}

/**
 * The SHA-256 of each series' bars this thread has hashed, by what the bytes
 * are: the store and its directory generation, the series, the slot's write
 * seq when read (it moves on every write and never goes back; slots are never
 * reused) and the number of bars. A run again over unchanged bars (the next
 * universe run, a single-symbol run after it) hashes nothing; one entry per
 * series held, replaced when its bars change. A hash whose bars were
 * written to meanwhile is returned but not kept.
 */
class Fingerprints {
  private readonly bySeries = new Map<string, { key: string; hex: string }>();

  of(handle: StoreHandle, symbol: string, version: number, bars: Ohlcv): string {
    const id = `${handle.storeId}|${symbol}`;
    const key = `${handle.generation}|${version}|${bars.ts.length}`;
    const kept = this.bySeries.get(id);
    if (kept?.key === key) return kept.hex;
    const hex = fingerprint(bars);
    if (store(handle).version(symbol, 'daily') === version) this.bySeries.set(id, { key, hex });
    return hex;
  }
}

const fingerprints = new Fingerprints();

/** The bars of `symbol` at or before `endTs` and their fingerprint, or undefined. */
function barsUpTo(handle: StoreHandle, symbol: string, endTs: number): { bars: Ohlcv; fingerprint: string } | undefined {
  const series = store(handle).get(symbol, 'daily');
  if (!series) return undefined;
  const n = indexAtOrBefore(series.ts, endTs) + 1;
  if (n <= 0) return undefined;
  const bars = headBars(series, n);
  return { bars, fingerprint: fingerprints.of(handle, symbol, series.version, bars) };
}

/**
 * `use` with the bars of `symbol` at or before `endTs` and their scan
 * indicators, as views (`standingOn`): the indicators are the store's
 * incremental state (store/scan-state, equal to `computeScanIndicators` bit
 * for bit), kept beside the bars rather than computed again for every run.
 * Holds the series' slot while `use` runs (one symbol's work, and no other
 * slot taken inside it). Undefined without such a bar.
 */
function withBarsUpTo<T>(handle: StoreHandle, symbol: string, endTs: number, use: (bars: Ohlcv, ind: ScanIndicatorSet, fingerprint: () => string) => T): T | undefined {
  return withScanInputs(store(handle), symbol, 'daily', (series, ind) => {
    const n = indexAtOrBefore(series.ts, endTs) + 1;
    if (n <= 0) return undefined;
    const view = standingOn(series, ind, n - 1);
    // A backtest reads every bar: the rolling extremes as arrays (O(bars) once, rather than O(window) a read).
    return use(view.bars, extremeArrays(view.bars, view.ind), () => fingerprints.of(handle, symbol, series.version, view.bars));
  });
}

/** SHA-256 (hex) of the bars' six columns, as the little-endian doubles they are. */
export function fingerprint(bars: Ohlcv): string {
  const hash = createHash('sha256');
  for (const name of OHLCV_COLUMNS) {
    const column = bars[name];
    hash.update(new Uint8Array(column.buffer, column.byteOffset, column.byteLength));
  }
  return hash.digest('hex');
}

/** A fold's windows as bar times (from, to inclusive), null when empty. */
export interface FoldWindows {
  index: number;
  train: [number, number];
  purge: [number, number] | null;
  test: [number, number];
  embargo: [number, number] | null;
  bars: { train: number; purge: number; test: number; embargo: number };
  partial: boolean;
}

function windowsOf(calendar: ArrayLike<number>, fold: Fold): FoldWindows {
  const span = (from: number, to: number): [number, number] | null => (from <= to ? [calendar[from]!, calendar[to]!] : null);
  return {
    index: fold.index,
    train: span(fold.trainStart, fold.trainEnd)!,
    purge: span(fold.purgeStart, fold.purgeEnd),
    test: span(fold.testStart, fold.testEnd)!,
    embargo: span(fold.embargoStart, fold.embargoEnd),
    bars: {
      train: fold.trainEnd - fold.trainStart + 1,
      purge: fold.purgeEnd - fold.purgeStart + 1,
      test: fold.testEnd - fold.testStart + 1,
      embargo: Math.max(0, fold.embargoEnd - fold.embargoStart + 1),
    },
    partial: fold.partial,
  };
}

/** An evaluation as it crosses back to the main thread: without the trades' close paths. */
export type CompactEvaluation = Omit<Evaluation, 'folds' | 'trades'> & {
  folds: (Omit<Evaluation['folds'][number], 'trades' | 'fold'> & { windows: FoldWindows; trades: CompactTrade[] })[];
  trades: CompactTrade[];
};
export type CompactTrade = Omit<Evaluation['trades'][number], 'pathTs' | 'pathClose'>;

const compactTrade = ({ pathTs, pathClose, ...trade }: Evaluation['trades'][number]): CompactTrade => trade;

function compact(calendar: ArrayLike<number>, evaluation: Evaluation): CompactEvaluation {
  return {
    ...evaluation,
    folds: evaluation.folds.map(({ fold, trades, ...rest }) => ({ ...rest, windows: windowsOf(calendar, fold), trades: trades.map(compactTrade) })),
    trades: evaluation.trades.map(compactTrade),
  };
}

const evaluationOptions = (p: WalkForwardParams): EvaluationOptions => ({ costs: p.costs, capital: p.capital, maxPositions: p.maxPositions, minTrainTrades: p.minTrainTrades, trials: p.trials });

/** The close of `bars` at or before each calendar time (NaN before its first bar). */
function alignedCloses(bars: Ohlcv | undefined, calendar: ArrayLike<number>): Float64Array {
  const out = new Float64Array(calendar.length).fill(NaN);
  if (!bars) return out;
  for (let k = 0, i = -1; k < calendar.length; k++) {
    while (i + 1 < bars.ts.length && bars.ts[i + 1]! <= calendar[k]!) i++;
    if (i >= 0) out[k] = bars.close[i]!;
  }
  return out;
}

/**
 * The benchmark's market regime at each time, cached per benchmark bar (null
 * under 200 bars); `ind`: the benchmark's scan indicators, computed here when
 * not given.
 */
function regimeReader(bench: Ohlcv | undefined, ind?: ScanIndicatorSet, breadthAt: (ts: number) => number | null = () => null) {
  if (!bench) return () => null;
  const indicators = ind ?? computeScanIndicators(bench);
  const cache = new Map<number, RegimeReading | null>();
  return (ts: number): RegimeReading | null => {
    const j = indexAtOrBefore(bench.ts, ts);
    if (j < 200) return null;
    if (!cache.has(j)) cache.set(j, marketRegime(bench, indicators, j, breadthAt(ts)));
    return cache.get(j)!;
  };
}

export interface WalkForwardInput {
  handle: StoreHandle;
  symbol: string;
  benchmark: string;
  /** The last bar to use (a complete session). */
  endTs: number;
  params: WalkForwardParams;
}

export type WalkForwardOutput =
  | { ok: false; bars: number }
  | {
      ok: true;
      bars: number;
      /** First and last bar time of the data read (symbol). */
      span: [number, number];
      evaluation: CompactEvaluation;
      candidates: number;
      fingerprints: Record<string, string>;
      /** Bars of the benchmark read. */
      benchmarkBars: number;
    };

/** One symbol's purged walk-forward backtest, the market regime from `benchmark` (no universe: no RS rank, no breadth). */
export function walkForward({ handle, symbol, benchmark, endTs, params }: WalkForwardInput): WalkForwardOutput {
  // The benchmark's indicators are its own (not its slot's: one slot at a time, and the symbol may be the benchmark).
  const benchmarkRead = barsUpTo(handle, benchmark, endTs);
  const bench = benchmarkRead?.bars;
  const regimeAt = regimeReader(bench);
  const run = (bars: Ohlcv, ind: ScanIndicatorSet, fingerprintOf: () => string): WalkForwardOutput => {
    const n = bars.ts.length;
    if (n < params.train + params.purge + params.test) return { ok: false, bars: n };
    const folds = periodFolds(bars.ts, params);
    const from = Math.max(0, folds[0]!.trainStart - 1);
    const perBar = signalsAtEachBar(bars, from, n - 1, { regimeAt: (i) => regimeAt(bars.ts[i]!) }, ind);
    const candidates = candidateTrades(symbol, bars, perBar, from, { maxHold: params.maxHold, costs: params.costs });
    const calendar = Array.from(bars.ts);
    const evaluation = evaluateWalkForward(calendar, folds, candidates, evaluationOptions(params), {
      [symbol]: bars.close,
      [benchmark]: alignedCloses(bench, calendar),
    });
    return {
      ok: true,
      bars: n,
      span: [bars.ts[0]!, bars.ts[n - 1]!],
      evaluation: compact(calendar, evaluation),
      candidates: candidates.length,
      fingerprints: { [symbol]: fingerprintOf(), ...(benchmarkRead ? { [benchmark]: benchmarkRead.fingerprint } : {}) },
      benchmarkBars: bench?.ts.length ?? 0,
    };
  };
  return withBarsUpTo(handle, symbol, endTs, run) ?? { ok: false, bars: 0 };
}

export interface CrossSectionInput {
  handle: StoreHandle;
  symbols: string[];
  /** Bar times at which to read each symbol (a symbol without a bar at a time reads as missing there). */
  calendar: number[];
}

export interface SymbolCrossSection {
  symbol: string;
  /** RS score at each calendar time (NaN: no bar, or under a year of bars). */
  rsScore: Float64Array;
  /** 1 above its 50-bar average, 0 below, −1 unknown. */
  above: Int8Array;
}

/** Each symbol's RS score and 50-bar standing at every calendar time (the `prepare` task's figures, at every bar). */
export function backtestCrossSection({ handle, symbols, calendar }: CrossSectionInput): SymbolCrossSection[] {
  const s = store(handle);
  return symbols.map((symbol) => {
    const series = s.get(symbol, 'daily');
    const rsScore = new Float64Array(calendar.length).fill(NaN);
    const above = new Int8Array(calendar.length).fill(-1);
    if (series) {
      for (let k = 0, i = -1; k < calendar.length; k++) {
        while (i + 1 < series.ts.length && series.ts[i + 1]! <= calendar[k]!) i++;
        if (i < 0 || series.ts[i] !== calendar[k]) continue;
        const stats = symbolStats(symbol, series, i);
        rsScore[k] = stats.rsScore;
        above[k] = stats.aboveSma50 === null ? -1 : stats.aboveSma50 ? 1 : 0;
      }
    }
    return { symbol, rsScore, above };
  });
}

export interface RegimesInput {
  handle: StoreHandle;
  benchmark: string;
  calendar: number[];
  /** The universe's breadth at each calendar time, or null. */
  breadth: (number | null)[];
}

/** The benchmark's regime at every calendar time with the universe's breadth, its closes there and its fingerprint. */
export function backtestRegimes({ handle, benchmark, calendar, breadth }: RegimesInput): { regimes: (RegimeReading | null)[]; closes: Float64Array; fingerprint: string | null } {
  const endTs = calendar[calendar.length - 1] ?? -Infinity;
  const position = new Map(calendar.map((ts, k) => [ts, k]));
  const breadthAt = (ts: number) => breadth[position.get(ts) ?? -1] ?? null;
  return (
    withBarsUpTo(handle, benchmark, endTs, (bench, ind, fingerprintOf) => {
      const regimeAt = regimeReader(bench, ind, breadthAt);
      return { regimes: calendar.map((ts) => regimeAt(ts)), closes: alignedCloses(bench, calendar), fingerprint: fingerprintOf() };
    }) ?? { regimes: calendar.map(() => null), closes: alignedCloses(undefined, calendar), fingerprint: null }
  );
}

export interface CandidatesInput {
  handle: StoreHandle;
  symbols: string[];
  /** The run's calendar from the first bar to scan to its last bar. */
  calendar: number[];
  /** RS rank (1–99, 0 none) of each symbol at each calendar time. */
  ranks: Record<string, Int8Array>;
  regimes: (RegimeReading | null)[];
  maxHold: number;
  costs: Costs;
}

export interface SymbolCandidates {
  symbol: string;
  bars: number;
  candidates: CandidateTrade[];
  fingerprint: string | null;
  /** The symbol's close at each calendar time (NaN without a bar). */
  closes: Float64Array;
}

/** Signals at each bar (with the symbol's RS rank and the regime of that time) and candidates, per symbol of the batch. */
export function backtestCandidates({ handle, symbols, calendar, ranks, regimes, maxHold, costs }: CandidatesInput): SymbolCandidates[] {
  const firstTs = calendar[0]!;
  const endTs = calendar[calendar.length - 1]!;
  const position = new Map(calendar.map((ts, k) => [ts, k]));
  const candidatesOf = (symbol: string, bars: Ohlcv, ind: ScanIndicatorSet, fingerprintOf: () => string): SymbolCandidates => {
    const closes = new Float64Array(calendar.length).fill(NaN);
    for (let i = 0; i < bars.ts.length; i++) {
      const k = position.get(bars.ts[i]!);
      if (k !== undefined) closes[k] = bars.close[i]!;
    }
    const from = indexAtOrBefore(bars.ts, firstTs - 1) + 1;
    const n = bars.ts.length;
    let candidates: CandidateTrade[] = [];
    if (from < n) {
      const rank = ranks[symbol];
      const perBar = signalsAtEachBar(
        bars,
        from,
        n - 1,
        {
          rsRankAt: (i) => {
            const r = rank?.[position.get(bars.ts[i]!) ?? -1];
            return r ? r : null;
          },
          regimeAt: (i) => regimes[position.get(bars.ts[i]!) ?? -1] ?? null,
        },
        ind,
      );
      candidates = candidateTrades(symbol, bars, perBar, from, { maxHold, costs });
    }
    return { symbol, bars: n, candidates, fingerprint: fingerprintOf(), closes };
  };
  return symbols.map(
    (symbol) =>
      withBarsUpTo(handle, symbol, endTs, (bars, ind, fingerprintOf) => candidatesOf(symbol, bars, ind, fingerprintOf)) ?? {
        symbol,
        bars: 0,
        candidates: [],
        fingerprint: null,
        closes: new Float64Array(calendar.length).fill(NaN),
      },
  );
}

export interface EvaluateInput {
  calendar: number[];
  params: WalkForwardParams;
  candidates: CandidateTrade[];
  buyAndHold: Record<string, Float64Array>;
}

/** The walk-forward evaluation of every symbol's candidates over the run's calendar; null when it holds no fold. */
export function backtestEvaluate({ calendar, params, candidates, buyAndHold }: EvaluateInput): CompactEvaluation | null {
  const folds = periodFolds(calendar, params);
  if (folds.length === 0) return null;
  return compact(calendar, evaluateWalkForward(calendar, folds, candidates, evaluationOptions(params), buyAndHold));
}
