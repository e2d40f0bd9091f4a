/**
 * @module jobs/record
 * The record section of `/api/scorecard` and `/api/transparency/monthly`:
 * the ledger's closed daily trades beside both matched random baselines
 * (same-day and year-matched, kernels/baseline-match) with weekly
 * cluster-bootstrap intervals, by band, pattern, direction, year and market
 * regime; the alert policy's record; and the `edge` statement
 * (ledger/record-summary). The one interface the scorecard calls is
 * `recordOf(deps, view, trades)`.
 *
 * Every step that costs CPU runs in the worker pool's background lane (workers/record): the
 * year-matched quintile cuts, the draws in batches of `BATCH` trades (each a
 * short task), and the summary. On the request's thread: loading the
 * universe's daily bars through the cache-through market data (they land in
 * the shared bar store the workers read) and shaping the answer. The caller
 * keeps the result per ledger head (ledger/book `perHead`), so
 * concurrent readers share one computation.
 */
import { yieldToEventLoop } from '../db/client';
import type { ReplayParams, UniverseSpec } from '../domain/replay';
import type { MatchTrade } from '../kernels/baseline-match';
import type { ConfidenceCheck, Trade } from '../ledger/performance';
import { RECORD_BOOTSTRAP } from '../ledger/record-figures';
import { packRows } from '../ledger/packed-rows';
import { SUMMARY_FIELDS, type RecordSummary, type SummaryTrade } from '../ledger/record-summary';
import type { MarketData } from '../market-data';
import { batches, type KernelPool } from '../pool';
import type { BarStore } from '../store';
import { BASELINE_SEED } from './baseline';
import { replayUniverse } from './replay/universe';
import { defaultUniverse } from './scan';

export interface RecordDeps {
  marketData: MarketData;
  barStore: BarStore;
  pool: KernelPool;
}

/** Random entries drawn per trade and baseline. */
export const RECORD_MATCHES = 5;

/** Trades per draw task. */
const BATCH = 2000;

/**
 * Every task runs in the pool's background lane (niceness 10: the event loop
 * and the live lane get the CPU first, src/pool), with this long from being
 * sent (queued behind the other batches and any replay slices) to its answer.
 */
const TASK = { lane: 'background', timeoutMs: 10 * 60_000 } as const;

/** The section's method, in words (served with it). */
export const RECORD_METHOD = {
  trades: "the ledger's closed, entered daily trades (a lifecycle scratch counts in hitRate and meanR, as the ledger records it)",
  priceLabel: 'priceHitRate: target1 reached before the stop on prices alone from the entry bar (a bar touching both counts the stop)',
  sameDay: `sameDay: ${RECORD_MATCHES} random entries per trade at the close of its entry date, in other members of the universe that day, in the same ATR(14)% quintile of that day's members, with the trade's direction and its stop and target1 distances as fractions of its entry, resolved by prices; matched on bars up to the entry date only`,
  yearMatched: `yearMatched: ${RECORD_MATCHES} random entries per trade of the same calendar year and ATR(14)% quintile (cut points of the trades' own ATR% at entry), from the universe's members that day, same geometry, resolved by prices; it credits market timing (a trade in a sell-off is compared with the year's calm months too)`,
  lift: 'lift = priceHitRate − the baseline hit rate; liftR = the trades\' mean price-label R − the draws\' mean R. Only the same-day lift judges the choice of stock',
  intervals: `every interval: a 95% weekly cluster bootstrap (trades entered in the same Monday-based week resampled together; ${RECORD_BOOTSTRAP.resamples} resamples, seed ${RECORD_BOOTSTRAP.seed}, percentile method): trades of one week move together, so intervals that treat them as independent are too narrow`,
  alertPolicy: 'alertPolicy: closed daily trades whose signal was alert-eligible when surfaced, let through vs blocked by each reason (a signal blocked for several reasons counts under each); differences are let through − blocked; kind says whether the record supports the reason as an edge rule or it is a risk rule (docs/alert-policy.md)',
};

export interface RecordSection extends RecordSummary {
  /** Which ledger the figures come from. */
  ledger: 'live' | 'replay';
  /** The universe random entries were drawn from, in words. */
  universe: string;
  matches: number;
  method: typeof RECORD_METHOD;
}

const daily = (t: Trade) => t.levels !== null && t.timeframe === 'daily' && (t.direction === 'long' || t.direction === 'short');

/** The universe the baselines draw from: a replay's own (its spec), or today's for the live ledger. */
async function universeOf(marketData: MarketData, params: ReplayParams | null): Promise<{ symbols: string[]; kind: UniverseSpec['kind']; words: string }> {
  if (!params) return { symbols: await defaultUniverse(marketData), kind: 'default', words: "today's S&P 500 and Nasdaq-100 members the data source serves (the live ledger's universe)" };
  const universe = await replayUniverse(params.universe, marketData, params.from, params.to);
  const words = { sp500: 'the S&P 500 members of each date (point in time) that the data source serves', default: "today's S&P 500 and Nasdaq-100 members, at every date", symbols: "the replay's list of symbols" }[params.universe.kind];
  return { symbols: universe.symbols, kind: params.universe.kind, words };
}

/**
 * The confidence check of `inputs` (ledger/figures `confidenceInputs`) on a
 * worker thread: its sort of a boot replay's 68k confidences held the
 * server's thread 55 ms at load 13 (issue 27). The same function and inputs,
 * so the same figures.
 */
export function confidenceInPool(deps: Pick<RecordDeps, 'pool'>, inputs: { p: Float64Array; y: Float64Array }): Promise<ConfidenceCheck> {
  return deps.pool.run('recordConfidence', inputs, TASK);
}

/** Trades shaped between two turns of the event loop (68k closed trades of a boot replay: ~25 ms a pass at load 12). */
const SHAPE_SLICE = 10_000;

/** `f` of each item, `SHAPE_SLICE` items between two turns of the event loop. */
async function mapInTurns<T, R>(items: readonly T[], f: (item: T, index: number) => R): Promise<R[]> {
  const out: R[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % SHAPE_SLICE === 0) await yieldToEventLoop();
    out[i] = f(items[i]!, i);
  }
  return out;
}

/** What the quintile cuts read of each trade (ledger/packed-rows). */
const CUT_FIELDS = { symbol: 'word', entryAt: 'word' } as const;

/**
 * The record section of `trades` (see the module comment). The trades cross
 * to the worker threads packed as columns (ledger/packed-rows), and every
 * pass over them on this thread gives the event loop back every
 * `SHAPE_SLICE`: as objects, the clone of a boot replay's 68k trades held the
 * server's thread 150–760 ms in one stretch (issue 27).
 */
export async function recordOf(deps: RecordDeps, view: { source: 'live' | 'replay'; params: ReplayParams | null }, trades: readonly Trade[]): Promise<RecordSection> {
  const { marketData, pool } = deps;
  const closed = trades.filter(daily);
  const universe = await universeOf(marketData, view.params);
  await yieldToEventLoop();
  const match: MatchTrade[] = await mapInTurns(closed, (t) => ({ symbol: t.symbol, direction: t.direction as 'long' | 'short', ...t.levels! }));
  if (closed.length > 0) {
    // Into the shared bar store, which the workers read (cache-through: each series loaded once). A series the
    // simulator has not drawn yet is drawn on this thread when asked (5–20 ms each), and an await of work that
    // never waits on I/O does not give the event loop back: one series per turn of the loop, or the universe's
    // 500 series would hold it for seconds on a cold server (issue 27).
    const symbols = new Set(universe.symbols);
    for (const t of closed) symbols.add(t.symbol);
    for (const symbol of symbols) {
      await marketData.bars(symbol, 'daily').catch(() => null);
      await yieldToEventLoop();
    }
  }
  const handle = deps.barStore.handle();
  const yearCuts = closed.length ? await pool.run('recordCuts', { handle, trades: await packRows(match, CUT_FIELDS) }, TASK) : [];
  const parts = closed.length ? batches(match, Math.ceil(match.length / BATCH)) : [];
  const results = (await Promise.all(parts.map((part) => pool.run('recordMatch', { handle, trades: part, symbols: universe.symbols, universe: universe.kind, matches: RECORD_MATCHES, seed: BASELINE_SEED, yearCuts }, TASK)))).flat();
  await yieldToEventLoop();
  const summaryTrades: SummaryTrade[] = await mapInTurns(closed, (t, k) => ({
    ...results[k]!,
    entryAt: t.levels!.entryAt,
    outcome: t.outcome,
    r: t.rMultiple ?? 0,
    scoreBand: t.scoreBand,
    patternType: t.patternType,
    direction: t.direction,
    regime: t.regime,
    alert: t.alert,
  }));
  const summary = await pool.run('recordSection', { trades: await packRows(summaryTrades, SUMMARY_FIELDS) }, TASK);
  return { ledger: view.source, universe: universe.words, matches: RECORD_MATCHES, method: RECORD_METHOD, ...summary };
}
