/**
 * Worker entry points for universe scans (run by src/pool through piscina).
 * Each task attaches the shared bar store (zero copy; the reader is kept while
 * the store's generation is unchanged) and calls the pure kernels. The
 * indicators come from the store's incremental scan state (store/scan-state):
 * a scan on a new bar computes that bar's indicators, not the history's, and
 * the detectors refit only the bars not fitted before ({@link LiveFits}).
 */
import type { BreakoutState, OpenSetup, RegimeReading, ScanFinding, SymbolProfile, SymbolStats, Timeframe } from '../src/domain/signal';
import { headIndicators, type ScanIndicatorSet } from '../src/kernels/indicators';
import { headBars, type Ohlcv } from '../src/kernels/ohlcv';
import { marketRegime } from '../src/kernels/regime';
import { rsScore } from '../src/kernels/rs-rank';
import { replayLifecycle, scanWithIndicators, type ScanContext } from '../src/kernels/scan';
import { trendRegime, trendTemplate } from '../src/kernels/trend';
import { FitMemo } from '../src/kernels/patterns';
import { withScanInputs, type StoreHandle } from '../src/store';
import { indexAtOrBefore, store } from './store';

/** The bars up to and including `asOf`, as views (nothing later can be read through them). */
export const upTo = (series: Ohlcv, asOf: number): Ohlcv => headBars(series, asOf + 1);

/** The bars and indicators up to and including `asOf`, as views: what a scan standing on `asOf` may read. */
export function standingOn(series: Ohlcv, ind: ScanIndicatorSet, asOf: number): { bars: Ohlcv; ind: ScanIndicatorSet } {
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

/**
 * The detectors' fits kept between live scans in this worker thread, a
 * `FitMemo` a series (patterns/types): a scan standing on a series' last bar
 * refits only the ends it has not fitted before, so a new bar costs a fit or
 * two a detector, not the recent window's. A fit reads bars up to its end
 * only, so it holds while those bars do:
 * - a fit ending at the last stored bar is forgotten after the scan (that bar
 *   may still be forming: the next write may revise it, revision unchanged);
 * - the memo is dropped when the series' revision moves (a write changed a
 *   bar before the last, or the window slid), when its first bar or the last
 *   bar it kept fits for is not the same bar, when the store's generation
 *   changes, and after a read a write overlapped;
 * - memos are kept for the {@link LIVE_FITS_STORES} stores scanned last;
 * - fits older than {@link LIVE_FITS_BARS} bars are let go (memory).
 * Only a scan standing on the last bar uses it (a scan `asOf` an earlier date
 * fits from scratch), so it holds about {@link LIVE_FITS_BARS} ends a detector
 * and series. The findings are those of a scan without it (the replay's memo
 * property, `test/kernels/patterns/memo.test.ts`; `test/workers/scan-live-fits.test.ts`).
 */
export class LiveFits {
  /** By store id, the latest used last (a scan may alternate between two stores: a replay's cut copy, a test's fresh one). */
  private readonly stores = new Map<string, { generation: number; bySeries: Map<string, KeptFits> }>();

  /** The memo of a series whose bars are `ts` (held under the slot's lock), or a fresh one. */
  memo(store: StoreHandle, symbol: string, timeframe: Timeframe, revision: number, ts: Float64Array): FitMemo {
    let held = this.stores.get(store.storeId);
    this.stores.delete(store.storeId);
    if (!held || held.generation !== store.generation) held = { generation: store.generation, bySeries: new Map() };
    this.stores.set(store.storeId, held);
    for (const id of this.stores.keys()) if (this.stores.size > LIVE_FITS_STORES) this.stores.delete(id);
    const key = `${timeframe}\u0000${symbol}`;
    const kept = held.bySeries.get(key);
    if (kept && kept.revision === revision && kept.firstTs === ts[0] && kept.keptEnd < ts.length && kept.keptTs === ts[kept.keptEnd]) return kept.memo;
    const memo = new FitMemo();
    held.bySeries.set(key, { memo, revision, firstTs: ts[0]!, keptEnd: -1, keptTs: NaN });
    return memo;
  }

  private kept(store: StoreHandle, symbol: string, timeframe: Timeframe): KeptFits | undefined {
    const held = this.stores.get(store.storeId);
    return held?.generation === store.generation ? held.bySeries.get(`${timeframe}\u0000${symbol}`) : undefined;
  }

  /** After a scan over bars `ts` that no write overlapped: forget the last (forming) bar's fits and the old ones. */
  settle(store: StoreHandle, symbol: string, timeframe: Timeframe, ts: Float64Array): void {
    const kept = this.kept(store, symbol, timeframe);
    if (!kept) return;
    const last = ts.length - 2; // the last bar a write cannot revise without moving the revision
    kept.memo.retain(last - LIVE_FITS_BARS + 1, last);
    kept.keptEnd = last;
    kept.keptTs = last >= 0 ? ts[last]! : NaN;
  }

  /** Forget a series (a write overlapped the read that used its memo). */
  drop(store: StoreHandle, symbol: string, timeframe: Timeframe): void {
    this.stores.get(store.storeId)?.bySeries.delete(`${timeframe}\u0000${symbol}`);
  }
}

interface KeptFits {
  memo: FitMemo;
  /** The series' revision, first bar time, and the last bar the memo holds fits up to, with its time. */
  revision: number;
  firstTs: number;
  keptEnd: number;
  keptTs: number;
}

/** Stores {@link LiveFits} keeps fits for. */
export const LIVE_FITS_STORES = 2;

/** Bars of fits {@link LiveFits} keeps a series (the detectors look back 5 bars for a breakout; a flag back to its pole). */
export const LIVE_FITS_BARS = 48;

/** This thread's fits between live scans. */
const liveFits = new LiveFits();

/** Scans a batch of symbols as of `asOfTs`: the live setups of each, each symbol's trend profile, and the regime the scores read. */
export function scan({ handle, symbols, timeframe, asOfTs, rsRanks, regime: given, regimeOf }: ScanInput): { findings: ScanFinding[]; profiles: SymbolProfile[]; regime: RegimeReading | null } {
  const regime = regimeOf ? readRegime(handle, regimeOf.benchmark, timeframe, asOfTs, regimeOf.breadth) : given;
  const s = store(handle);
  const out: ScanFinding[] = [];
  const profiles: SymbolProfile[] = [];
  for (const symbol of symbols) {
    let calls = 0;
    let seen = -1; // the bars' version a memo was used on
    withScanInputs(s, symbol, timeframe, (series, ind) => {
      // A second call is the redo over a consistent copy after an overlapping write: no memo then.
      calls++;
      const asOf = indexAtOrBefore(series.ts, asOfTs);
      if (asOf < 0) return;
      const rank = rsRanks[symbol];
      const rsRank = rank === undefined || Number.isNaN(rank) ? null : rank;
      let memo: FitMemo | undefined;
      if (calls === 1 && asOf === series.ts.length - 1) {
        seen = series.version;
        memo = liveFits.memo(handle, symbol, timeframe, s.revision(symbol, timeframe)!, series.ts);
      }
      profiles.push(profileAt(symbol, series, ind, asOf, rsRank));
      out.push(...findingsAt(symbol, standingOn(series, ind, asOf), { rsRank, regime, memo }));
      if (memo && calls === 1) liveFits.settle(handle, symbol, timeframe, series.ts);
    });
    // The revision read, the fits kept and the bars they read are one version only if no write came since.
    if (seen >= 0 && (calls > 1 || s.version(symbol, timeframe) !== seen)) liveFits.drop(handle, symbol, timeframe);
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
        const { snapshot, transitions } = replayLifecycle(view.bars, view.ind, setup, end + 1, asOf);
        out.push({ id: setup.id, state: snapshot.state, transitions });
      }
    });
  }
  return out;
}
