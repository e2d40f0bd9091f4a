/**
 * bench/calibration-trades: the replayed record as trades, for
 * bench/calibration, bench/failure-rule and bench/score-select.
 *
 * `gatherTrades` replays the real daily history point in time with the replay
 * engine (jobs/replay) and keeps every entered trade the replay resolved (win,
 * loss or scratch, as the ledger records it), with what was known when it was
 * surfaced (band, components, market regime, the alert policy's verdict) and
 * its levels. `attachBaselines` then labels each trade by prices and draws its
 * two matched baselines (jobs/baseline: year-matched and same-day); it runs on
 * stored trades too, so the baselines follow the code without a new replay.
 */
import { readdirSync } from 'node:fs';
import { openDatabase } from '../src/db/client';
import { BarsRepository } from '../src/db/repositories/bars';
import { SCORE_COMPONENTS, type Direction, type Signal } from '../src/domain/signal';
import { BASELINE_SEED, matchedBaseline } from '../src/jobs/baseline';
import { prepareReplay, replayChunks } from '../src/jobs/replay/engine';
import type { MatchResult } from '../src/kernels/baseline-match';
import type { FailureRule } from '../src/kernels/lifecycle';
import type { Ohlcv } from '../src/kernels/ohlcv';
import { createLogger } from '../src/log';
import { MarketData } from '../src/market-data';
import { createPool } from '../src/pool';
import { createCsvProvider } from '../src/providers/csv';
import { sp500Membership } from '../src/providers/universe/membership';
import { BarStore } from '../src/store';

/**
 * One entered trade of the replay, with its labels and its matched baselines
 * (kernels/baseline-match `MatchResult`: the price label, and the year-matched
 * `base*` and same-day `same*` draws).
 */
export interface Trade extends MatchResult {
  id: string;
  symbol: string;
  patternType: string;
  direction: Direction;
  band: string;
  finalScore: number;
  confidence: number;
  components: number[];
  detectedAt: string;
  /** When it was surfaced (bar time), in what state, and the market regime then (null before the benchmark has 200 bars). */
  surfacedAt: string;
  surfacedState: string;
  regime: string | null;
  /** The alert policy's verdict when surfaced: candidate, blocked (with its reasons' codes) or not eligible. */
  alert: { verdict: string; codes: string[] };
  trigger: number;
  /** The pattern's last bar (ISO) and depth (%), for a failure rule that reads them. */
  patternEnd: string;
  depthPct: number;
  entryAt: string;
  entry: number;
  stopLoss: number;
  target1: number;
  /** Ledger outcome: win, loss or scratch; its R, calendar days held and exit time. */
  outcome: string;
  r: number;
  daysHeld: number;
  exitAt: string;
}

/** What a gathered replay holds (bench/calibration --trades writes it as JSON). */
export interface Gathered {
  trades: Trade[];
  universe: unknown;
  sessions: number;
  symbols: number;
  replayMs: number;
  /** The failure rule the replay ran with (kernels/lifecycle); absent: the record's. */
  failure?: FailureRule;
}

export interface GatherOptions {
  dir: string;
  from: string;
  to: string;
  /** Draws per trade and baseline (0: labels only, no draws). */
  matches: number;
  seed?: number;
  symbols?: string[];
  benchmark?: string;
  /** The lifecycle's failure rule (bench/failure-rule); default the record's. */
  failure?: FailureRule;
  onProgress?: (line: string) => void;
}

const NO_BASELINE = { priceHit: null, priceR: null, baseHits: 0, baseN: 0, baseSumR: 0, sameHits: 0, sameN: 0, sameSumR: 0 } as const;

function csvMarket(dir: string) {
  return openDatabase({ dataDir: ':memory:' }).then((database) => {
    const barStore = new BarStore();
    const marketData = new MarketData({ provider: createCsvProvider({ dir }), repository: new BarsRepository(database.db), store: barStore, ttlMs: 1e12, log: createLogger('silent') });
    return { database, barStore, marketData };
  });
}

/** Every symbol the csv directory has a file for. */
export function csvSymbols(dir: string): string[] {
  return readdirSync(dir)
    .map((f) => /^(.+?)\.csv(\.gz)?$/.exec(f)?.[1])
    .filter((s): s is string => s !== undefined)
    .sort();
}

/** The daily bars of `symbols` from the csv directory (those it has). */
export async function loadSeries(dir: string, symbols: readonly string[]): Promise<Map<string, Ohlcv>> {
  const { database, marketData } = await csvMarket(dir);
  try {
    const series = new Map<string, Ohlcv>();
    for (const symbol of symbols) {
      const bars = await marketData.bars(symbol, 'daily').catch(() => null);
      if (bars && bars.ts.length) series.set(symbol, bars);
    }
    return series;
  } finally {
    await database.close();
  }
}

/**
 * Labels every trade by prices and draws both baselines (jobs/baseline), in
 * place: the universe is the S&P 500 of each date (fja05680/sp500) over the
 * symbols the data has, or `symbols` at every date when given.
 */
export async function attachBaselines(trades: (Trade & { failFrac?: number | null })[], options: { dir: string; matches: number; seed?: number; symbols?: string[]; series?: Map<string, Ohlcv>; universe?: readonly string[] }): Promise<void> {
  const { database, marketData } = await csvMarket(options.dir);
  try {
    const membership = options.symbols ? null : sp500Membership();
    const universe = options.universe ?? options.symbols ?? [...new Set(trades.map((t) => t.symbol))];
    const results = await matchedBaseline(marketData, trades, {
      symbols: universe,
      ...(membership ? { isMember: (symbol: string, day: string) => membership.isMember(symbol, day) } : {}),
      matches: options.matches,
      seed: options.seed ?? BASELINE_SEED,
      ...(options.series ? { series: options.series } : {}),
    });
    trades.forEach((t, k) => Object.assign(t, results[k]!));
  } finally {
    await database.close();
  }
}

/** Runs the replay and gathers its entered trades with their labels and baselines (see the module comment). */
export async function gatherTrades(options: GatherOptions): Promise<Gathered> {
  const pool = createPool({ threads: 2, warm: true, taskTimeoutMs: 1_800_000 });
  const { database, barStore, marketData } = await csvMarket(options.dir);
  const deps = { marketData, barStore, pool };
  try {
    const started = performance.now();
    const prepared = await prepareReplay(deps, {
      timeframe: 'daily',
      from: options.from,
      to: options.to,
      universe: options.symbols ? { kind: 'symbols', symbols: options.symbols } : { kind: 'sp500' },
      benchmark: options.benchmark ?? 'SPY',
    });
    // A signal is kept only until its outcome record: then it becomes a trade (entered) or is dropped.
    const signals = new Map<string, { signal: Signal; surfacedAt: string; regime: string | null; alert: { verdict: string; codes: string[] } }>();
    const trades: Trade[] = [];
    let signalCount = 0;
    let outcomeCount = 0;
    const toTrade = (signalId: string, data: Record<string, unknown>) => {
      const held = signals.get(signalId);
      signals.delete(signalId);
      const s = held?.signal;
      if (data.entered !== true || !held || !s || s.stopLoss === null) return;
      const stopLoss = s.stopLoss;
      trades.push({
        id: s.id,
        symbol: s.symbol,
        patternType: s.patternType,
        direction: s.direction,
        band: s.scoreBand,
        finalScore: s.finalScore,
        confidence: s.confidence,
        components: SCORE_COMPONENTS.map((c) => s.components[c] ?? 0),
        detectedAt: s.detectedAt,
        surfacedAt: held.surfacedAt,
        surfacedState: s.breakoutState,
        regime: held.regime,
        alert: held.alert,
        trigger: s.triggerPrice,
        patternEnd: s.geometry.end,
        depthPct: s.geometry.depthPct,
        entryAt: String(data.entryAt),
        entry: Number(data.entry),
        stopLoss,
        target1: s.target1,
        outcome: String(data.outcome),
        r: Number(data.rMultiple),
        daysHeld: Number(data.daysHeld),
        exitAt: String(data.exitAt),
        ...NO_BASELINE,
      });
    };
    for await (const chunk of replayChunks(deps, prepared, options.failure ? { failure: options.failure } : {})) {
      for (const r of chunk.records) {
        if (r.kind === 'signal') {
          signals.set(r.signal.id, { signal: r.signal, surfacedAt: r.surfacedAt, regime: r.regime, alert: { verdict: r.alert.verdict, codes: r.alert.codes } });
          signalCount++;
        } else if (r.kind === 'outcome') {
          outcomeCount++;
          toTrade(r.signalId, r.data);
        }
      }
      options.onProgress?.(`replay ${prepared.dates[chunk.to - 1]} (${chunk.to}/${prepared.sessionTs.length} sessions), ${signalCount} signals, ${outcomeCount} outcomes, ${Math.round((performance.now() - started) / 1000)} s`);
    }
    const replayMs = performance.now() - started;
    // Bars of every symbol the replay read, for the labels and the baselines.
    const series = new Map<string, Ohlcv>();
    for (const symbol of prepared.symbols) series.set(symbol, await marketData.bars(symbol, 'daily'));
    // The universe as every later run over stored trades takes it (csvSymbols, in its order), so a replay and a --reuse draw alike.
    await attachBaselines(trades, { dir: options.dir, matches: options.matches, ...(options.seed !== undefined ? { seed: options.seed } : {}), ...(options.symbols ? { symbols: options.symbols } : {}), series, universe: options.symbols ?? csvSymbols(options.dir) });
    return { trades, universe: prepared.universe, sessions: prepared.sessionTs.length, symbols: prepared.symbols.length, replayMs, ...(options.failure ? { failure: options.failure } : {}) };
  } finally {
    await pool.destroy();
    await database.close();
  }
}
