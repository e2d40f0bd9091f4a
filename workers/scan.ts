/**
 * Worker entry points for universe scans (run by src/pool through piscina).
 * Each task attaches the shared bar store (zero copy; the reader is kept while
 * the store's generation is unchanged) and calls the pure kernels. The
 * indicators come from the store's incremental scan state (store/scan-state):
 * a scan on a new bar computes that bar's indicators, not the history's.
 */
import type { BreakoutState, OpenSetup, RegimeReading, ScanFinding, SymbolProfile, SymbolStats, Timeframe } from '../src/domain/signal';
import { SCAN_INDICATORS, headIndicators, type ScanIndicatorSet } from '../src/kernels/indicators';
import { headBars, type Ohlcv } from '../src/kernels/ohlcv';
import { failureLevel, FAILURE_RULE } from '../src/kernels/lifecycle';
import { marketRegime } from '../src/kernels/regime';
import { rsScore } from '../src/kernels/rs-rank';
import { replayLifecycle, scanWithIndicators, type ScanContext } from '../src/kernels/scan';
import { trendRegime, trendTemplate } from '../src/kernels/trend';
import { withScanInputs, type StoreHandle } from '../src/store';
import { indexAtOrBefore, store } from './store';

/** The bars up to and including `asOf`, as views (nothing later can be read through them). */
export const upTo = (series: Ohlcv, asOf: number): Ohlcv => headBars(series, asOf + 1);

/**
 * The bars and indicators up to and including `asOf`, as views: what a scan
 * standing on `asOf` may read. Standing on the last bar (the live scan), the
 * views given are already that (19 views fewer a symbol).
 */
export function standingOn(series: Ohlcv, ind: ScanIndicatorSet, asOf: number): { bars: Ohlcv; ind: ScanIndicatorSet } {
  if (asOf + 1 === series.ts.length && SCAN_INDICATORS.every((name) => ind[name].length === asOf + 1)) return { bars: series, ind };
  return { bars: upTo(series, asOf), ind: headIndicators(ind, asOf + 1) };
}

export interface PrepareInput {
  handle: StoreHandle;
  symbols: string[];
  timeframe: Timeframe;
  asOfTs: number;
}

/** Average close × volume over the 50 bars up to bar `i` (fewer at the series' start). */
export function dollarVolume50(series: Ohlcv, i: number): number {
  const n = Math.min(50, i + 1);
  let dollars = 0;
  for (let k = i - n + 1; k <= i; k++) dollars += series.close[k]! * series.volume[k]!;
  return dollars / n;
}

/** A symbol's cross-sectional inputs standing on bar `i` of `series` (RS score, above its 50-bar average, liquidity); empty without a bar. */
export function symbolStats(symbol: string, series: Ohlcv | undefined, i: number): SymbolStats {
  if (!series || i < 0) return { symbol, barTs: null, rsScore: NaN, aboveSma50: null, avgDollarVolume50: NaN, close: NaN };
  let sum = 0;
  const n = Math.min(50, i + 1);
  for (let k = i - n + 1; k <= i; k++) sum += series.close[k]!;
  return {
    symbol,
    barTs: series.ts[i]!,
    rsScore: rsScore(series.close, i),
    aboveSma50: n < 50 ? null : series.close[i]! > sum / n,
    avgDollarVolume50: dollarVolume50(series, i),
    close: series.close[i]!,
  };
}

/** Per-symbol inputs of the cross-sectional figures (RS ranks, breadth, liquidity). */
export function prepare({ handle, symbols, timeframe, asOfTs }: PrepareInput): SymbolStats[] {
  const s = store(handle);
  return symbols.map((symbol) => {
    const series = s.get(symbol, timeframe);
    return symbolStats(symbol, series, series ? indexAtOrBefore(series.ts, asOfTs) : -1);
  });
}

export interface ScanInput extends PrepareInput {
  rsRanks: Record<string, number>;
  /** The market regime the scores read; with `regimeOf` the task reads it itself (one round trip less for a scan). */
  regime: RegimeReading | null;
  /** Read the regime from this benchmark and breadth ({@link regime}) in place of `regime`. */
  regimeOf?: { benchmark: string; breadth: number | null };
}

/**
 * One symbol's live setups standing on the last bar of `view` (bars and
 * indicators that end at the scan's bar, `standingOn`), as findings with bar
 * indices turned into times.
 */
export function findingsAt(symbol: string, view: { bars: Ohlcv; ind: ScanIndicatorSet }, ctx: Omit<ScanContext, 'asOf'>): ScanFinding[] {
  const series = view.bars;
  const asOf = series.ts.length - 1;
  return scanWithIndicators(view.bars, view.ind, { ...ctx, asOf }).map((f): ScanFinding => {
    const { match } = f;
    return {
      symbol,
      patternType: match.patternType,
      patternFamily: match.patternFamily,
      direction: match.direction,
      state: f.state,
      trendRegime: f.trendRegime,
      pivot: match.pivot,
      target1: match.target1,
      stopLoss: match.stopLoss,
      finalScore: f.score.finalScore,
      confidence: f.score.confidence,
      band: f.score.band,
      components: f.score.components,
      reasons: f.reasons,
      detectedTs: series.ts[f.detectedIndex]!,
      barTs: series.ts[asOf]!,
      close: f.close,
      distancePct: f.distancePct,
      breakoutVolumeRatio: match.breakout.volumeRatio,
      geometry: {
        startTs: series.ts[match.geometry.start]!,
        endTs: series.ts[match.geometry.end]!,
        depthPct: match.geometry.depthPct,
        lengthBars: match.geometry.lengthBars,
        contractions: match.geometry.contractions,
      },
    };
  });
}

/** A symbol's trend standing on bar `asOf`: Minervini's template and the trend regime. */
export function profileAt(symbol: string, series: Ohlcv, ind: ScanIndicatorSet, asOf: number, rsRank: number | null): SymbolProfile {
  return { symbol, trendTemplate: trendTemplate(series.close, ind, asOf, rsRank), trendRegime: trendRegime(series.close, ind, asOf) };
}

/** Scans a batch of symbols as of `asOfTs`: the live setups of each, each symbol's trend profile, and the regime the scores read. */
export function scan({ handle, symbols, timeframe, asOfTs, rsRanks, regime: given, regimeOf }: ScanInput): { findings: ScanFinding[]; profiles: SymbolProfile[]; regime: RegimeReading | null } {
  const regime = regimeOf ? readRegime(handle, regimeOf.benchmark, timeframe, asOfTs, regimeOf.breadth) : given;
  const s = store(handle);
  const out: ScanFinding[] = [];
  const profiles: SymbolProfile[] = [];
  for (const symbol of symbols) {
    withScanInputs(s, symbol, timeframe, (series, ind) => {
      const asOf = indexAtOrBefore(series.ts, asOfTs);
      if (asOf < 0) return;
      const rank = rsRanks[symbol];
      const rsRank = rank === undefined || Number.isNaN(rank) ? null : rank;
      profiles.push(profileAt(symbol, series, ind, asOf, rsRank));
      out.push(...findingsAt(symbol, standingOn(series, ind, asOf), { rsRank, regime }));
    });
  }
  return { findings: out, profiles, regime };
}

export interface RegimeInput extends PrepareInput {
  /** Share of the universe above its 50-bar average, 0..1, or null. */
  breadth: number | null;
}

/** The market regime from the benchmark (symbols[0]) as of `asOfTs`, or null without enough bars. */
export function regime({ handle, symbols, timeframe, asOfTs, breadth }: RegimeInput): RegimeReading | null {
  return readRegime(handle, symbols[0]!, timeframe, asOfTs, breadth);
}

function readRegime(handle: StoreHandle, benchmark: string, timeframe: Timeframe, asOfTs: number, breadth: number | null): RegimeReading | null {
  return (
    withScanInputs(store(handle), benchmark, timeframe, (series, ind) => {
      const asOf = indexAtOrBefore(series.ts, asOfTs);
      if (asOf < 200) return null;
      const view = standingOn(series, ind, asOf);
      return marketRegime(view.bars, view.ind, asOf, breadth);
    }) ?? null
  );
}

export interface TrackInput {
  handle: StoreHandle;
  timeframe: Timeframe;
  asOfTs: number;
  setups: OpenSetup[];
}

export interface TrackedState {
  id: string;
  state: BreakoutState;
  transitions: { from: BreakoutState; to: BreakoutState; ts: number; price: number }[];
}

/** Replays the lifecycle of persisted, still-open signals up to `asOfTs`. */
export function track({ handle, timeframe, asOfTs, setups }: TrackInput): TrackedState[] {
  const s = store(handle);
  const out: TrackedState[] = [];
  const bySymbol = new Map<string, OpenSetup[]>();
  for (const setup of setups) bySymbol.set(setup.symbol, [...(bySymbol.get(setup.symbol) ?? []), setup]);
  for (const [symbol, list] of bySymbol) {
    withScanInputs(s, symbol, timeframe, (series, ind) => {
      const asOf = indexAtOrBefore(series.ts, asOfTs);
      if (asOf < 0) return;
      const view = standingOn(series, ind, asOf);
      for (const setup of list) {
        const end = indexAtOrBefore(view.bars.ts, setup.patternEndTs);
        if (end < 0) continue;
        const failLevel = failureLevel(FAILURE_RULE, setup, { atr: view.ind.atr14[end], depthPct: setup.depthPct });
        const { snapshot, transitions } = replayLifecycle(view.bars, view.ind, { ...setup, failLevel }, end + 1, asOf);
        out.push({ id: setup.id, state: snapshot.state, transitions });
      }
    });
  }
  return out;
}
