/**
 * @module jobs/scan
 * A universe scan: load the bars (cache-through, into the shared store), let
 * the worker pool compute each symbol's cross-sectional inputs, rank relative
 * strength and read breadth and the market regime, scan every symbol in the
 * pool, and rank the findings into BreakoutSignals. The event loop only
 * orchestrates; every kernel runs in a worker.
 *
 * Point in time: with `asOfTs` the scan stands on the last bar at or before it
 * for every symbol, so a replay sees exactly what a scan on that date saw.
 *
 * A symbol whose data ended before that bar (a csv file that stops in 2024
 * beside a benchmark that runs to 2026) is not scanned, ranked or counted in
 * breadth: its signals would be old ones published under the scan's date. The
 * run names it in `staleSeries` (see `staleSeries` for the rule).
 */
import type { ScanResult, StaleSeries, SymbolStats, Timeframe } from '../domain/signal';
import { percentileRanks } from '../kernels/rs-rank';
import { toSignal } from '../kernels/signal';
import type { MarketData } from '../market-data';
import type { KernelPool } from '../pool';
import { batches } from '../pool';
import { DEFAULT_BENCHMARK } from '../providers/universe';
import type { BarStore } from '../store';
import { yieldToEventLoop } from '../db/client';

export interface ScanRequest {
  timeframe: Timeframe;
  /** Symbols to scan; default the S&P 500 ∪ Nasdaq-100 members the provider knows. */
  symbols?: string[];
  /** Stand on the last bar at or before this time (epoch ms); default the latest bar. */
  asOfTs?: number;
  /** The broad-market benchmark of the regime; default SPY. */
  benchmark?: string;
}

export interface ScanDeps {
  marketData: MarketData;
  barStore: BarStore;
  pool: KernelPool;
}

const iso = (ts: number) => new Date(ts).toISOString();

/** The default universe: every S&P 500 and Nasdaq-100 stock the provider serves. */
export async function defaultUniverse(marketData: Pick<MarketData, 'instruments'>): Promise<string[]> {
  const instruments = await marketData.instruments();
  return [...instruments.values()].filter((i) => i.indices.includes('sp500') || i.indices.includes('nasdaq100')).map((i) => i.symbol);
}

/**
 * Symbols whose bars are read between two turns of the event loop. A cold
 * read copies each series into the shared store (a few hundred microseconds a
 * symbol, several times that on a loaded machine); read all at once, the
 * universe's ~600 held the loop over a second while other requests waited
 * (issue 27), sliced so they hold it a few milliseconds at a time.
 */
const LOAD_SLICE = 16;

/**
 * Loads `symbols`' bars through the cache-through layer (which fills the
 * shared store): first made ahead off the main thread where the provider can
 * (MarketData.prepare), then read a slice at a time.
 */
async function loadBars(marketData: MarketData, symbols: string[], timeframe: Timeframe): Promise<void> {
  await marketData.prepare(symbols, timeframe);
  for (let i = 0; i < symbols.length; i += LOAD_SLICE) {
    if (i > 0) await yieldToEventLoop();
    await Promise.all(symbols.slice(i, i + LOAD_SLICE).map((s) => marketData.bars(s, timeframe)));
  }
}

export async function runScan({ marketData, barStore, pool }: ScanDeps, request: ScanRequest): Promise<ScanResult> {
  const started = Date.now();
  const { timeframe } = request;
  const symbols = request.symbols ?? (await defaultUniverse(marketData));
  const benchmark = request.benchmark ?? DEFAULT_BENCHMARK;
  await loadBars(marketData, [benchmark, ...symbols], timeframe);
  const benchBars = await marketData.bars(benchmark, timeframe);
  // Stand on the benchmark's last bar at or before the requested time.
  let standOn = benchBars.ts.length - 1;
  if (request.asOfTs !== undefined) while (standOn >= 0 && benchBars.ts[standOn]! > request.asOfTs) standOn--;
  const asOfTs = benchBars.ts[standOn] ?? request.asOfTs ?? started;
  const handle = barStore.handle();
  // One task per thread: every task message and answer costs a round trip, and the work per symbol is even enough.
  const parts = batches(symbols, pool.threads);

  const prepared = (await Promise.all(parts.map((part) => pool.run('prepare', { handle, symbols: part, timeframe, asOfTs })))).flat();
  const stale = staleSeries(prepared, benchBars.ts, standOn, timeframe);
  const left = new Set(stale.map((s) => s.symbol));
  const stats = left.size ? prepared.filter((s) => !left.has(s.symbol)) : prepared;
  const scanParts = left.size ? batches(stats.map((s) => s.symbol), pool.threads) : parts;
  const ranks = percentileRanks(stats.map((s) => s.rsScore));
  const rsRanks: Record<string, number> = {};
  stats.forEach((s, i) => {
    if (Number.isFinite(ranks[i]!)) rsRanks[s.symbol] = ranks[i]!;
  });
  const above = stats.filter((s) => s.aboveSma50 !== null);
  const breadth = above.length ? above.filter((s) => s.aboveSma50).length / above.length : null;
  // Every scan task reads the regime itself (the same bars, the same reading) rather than waiting on a task of its own.
  const regimeOf = { benchmark, breadth };
  const scanned = await Promise.all(scanParts.map((part) => pool.run('scan', { handle, symbols: part, timeframe, asOfTs, rsRanks, regime: null, regimeOf })));
  const regime = scanned[0]?.regime ?? (await pool.run('regime', { handle, symbols: [benchmark], timeframe, asOfTs, breadth }));
  const findings = scanned.flatMap((r) => r.findings);
  const profiles = new Map(scanned.flatMap((r) => r.profiles).map((p) => [p.symbol, p]));
  const statsBySymbol = new Map(stats.map((s) => [s.symbol, s]));
  const signals = findings.map((f) => toSignal(f, timeframe, rsRanks[f.symbol] ?? null, statsBySymbol.get(f.symbol)?.avgDollarVolume50 ?? null));
  signals.sort((a, b) => b.finalScore - a.finalScore || a.id.localeCompare(b.id));
  const finished = Date.now();
  return {
    timeframe,
    asOf: iso(asOfTs),
    startedAt: iso(started),
    finishedAt: iso(finished),
    durationMs: finished - started,
    symbolsScanned: stats.filter((s) => s.barTs !== null).length,
    regime,
    breadth,
    signals,
    stats: stats.map((s) => ({ ...s, rsRank: rsRanks[s.symbol] ?? null, profile: profiles.get(s.symbol) ?? null })),
    staleSeries: stale,
  };
}

/**
 * How many of the benchmark's bars may print after a series' last bar before
 * the series is stale: one regular session's worth of the timeframe's bars
 * (the US session, 9:30–16:00, holds 1 daily bar, 2 4h bars — from 9:30 and
 * 13:30 — and 7 1h bars, the last one 30 minutes, as the synthetic market and
 * Yahoo draw them). One session of lag is allowed for a halted symbol or a
 * vendor that posts one symbol's bar late; more, and its close is no longer
 * the market of the scan's date.
 */
export const STALE_AFTER_BARS: Readonly<Record<Timeframe, number>> = { daily: 1, '4h': 2, '1h': 7 };

/**
 * The series that are stale at the benchmark's bar `standOn` (the bar the
 * scan stands on): a series is stale when its last bar at or before that bar
 * (`SymbolStats.barTs`) lies more than `STALE_AFTER_BARS[timeframe]` of the
 * benchmark's bars behind it, counting the benchmark's bars after the
 * series' last bar up to and including `standOn`. Counting the benchmark's
 * own bars skips weekends, holidays and the night as the market does. A
 * symbol with no bar at or before the as-of (listed later) is not stale, only
 * absent; with no benchmark bar to stand on nothing can be judged stale.
 */
export function staleSeries(stats: readonly SymbolStats[], benchTs: Float64Array, standOn: number, timeframe: Timeframe): StaleSeries[] {
  if (standOn < 0) return [];
  const out: StaleSeries[] = [];
  for (const s of stats) {
    if (s.barTs === null) continue;
    let behind = 0;
    for (let j = standOn; j >= 0 && benchTs[j]! > s.barTs; j--) behind++;
    if (behind > STALE_AFTER_BARS[timeframe]) out.push({ symbol: s.symbol, lastBar: iso(s.barTs), barsBehind: behind });
  }
  return out;
}
