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
 */
import { alertsAt } from './alerts';
import { resolveOutcomes } from './outcomes';
import type { Logger } from '../log';
import { percentileRanks } from '../kernels/rs-rank';
import type { RegimeReading } from '../kernels/regime';
import type { LedgerRepository } from '../db/repositories/ledger';
import type { ScansRepository } from '../db/repositories/scans';
import { newId } from '../ids';
import type { KernelPool } from '../pool';
import { batches } from '../pool';
import type { MarketData } from '../providers/market-data';
import type { Timeframe } from '../providers/types';
import { DEFAULT_BENCHMARK } from '../providers/universe';
import type { BarStore } from '../store';
import type { EventBus } from '../stream/bus';
import type { SymbolProfile, SymbolStats, WorkerFinding } from '../../workers/scan';

/** A BreakoutSignal as the spec names its fields, plus our documented extras. */
export interface Signal {
  id: string;
  symbol: string;
  timeframe: Timeframe;
  patternFamily: string;
  patternType: string;
  direction: 'long' | 'short';
  trendRegime: string;
  breakoutState: string;
  triggerPrice: number;
  target1: number;
  stopLoss: number | null;
  finalScore: number;
  confidence: number;
  scoreBand: string;
  reasons: string[];
  detectedAt: string;
  /** Close at the scan and its distance beyond the trigger, in percent. */
  price: number;
  distancePct: number;
  breakoutVolumeRatio: number | null;
  rsRank: number | null;
  avgDollarVolume: number | null;
  geometry: { start: string; end: string; depthPct: number; lengthBars: number; contractions: number };
  components: Record<string, number | null>;
}

export interface ScanResult {
  timeframe: Timeframe;
  asOf: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  symbolsScanned: number;
  regime: RegimeReading | null;
  breadth: number | null;
  signals: Signal[];
  /** RS rank, liquidity and trend of every symbol scanned (the universe scan reuses them). */
  stats: (SymbolStats & { rsRank: number | null; profile: SymbolProfile | null })[];
}

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

export const signalId = (symbol: string, patternType: string, detectedAt: string) => `${symbol}-${patternType}-${detectedAt}`;

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const iso = (ts: number) => new Date(ts).toISOString();

/** The default universe: every S&P 500 and Nasdaq-100 stock the provider serves. */
export async function defaultUniverse(marketData: MarketData): Promise<string[]> {
  const instruments = await marketData.instruments();
  return [...instruments.values()].filter((i) => i.indices.includes('sp500') || i.indices.includes('nasdaq100')).map((i) => i.symbol);
}

export async function runScan({ marketData, barStore, pool }: ScanDeps, request: ScanRequest): Promise<ScanResult> {
  const started = Date.now();
  const { timeframe } = request;
  const symbols = request.symbols ?? (await defaultUniverse(marketData));
  const benchmark = request.benchmark ?? DEFAULT_BENCHMARK;
  // Loading goes through the cache-through layer, which fills the shared store.
  await Promise.all([benchmark, ...symbols].map((s) => marketData.bars(s, timeframe)));
  const benchBars = await marketData.bars(benchmark, timeframe);
  // Stand on the benchmark's last bar at or before the requested time.
  let standOn = benchBars.ts.length - 1;
  if (request.asOfTs !== undefined) while (standOn >= 0 && benchBars.ts[standOn]! > request.asOfTs) standOn--;
  const asOfTs = benchBars.ts[standOn] ?? request.asOfTs ?? started;
  const handle = barStore.handle();
  const parts = batches(symbols, pool.threads * 4);

  const stats = (await Promise.all(parts.map((part) => pool.run('prepare', { handle, symbols: part, timeframe, asOfTs })))).flat();
  const ranks = percentileRanks(stats.map((s) => s.rsScore));
  const rsRanks: Record<string, number> = {};
  stats.forEach((s, i) => {
    if (Number.isFinite(ranks[i]!)) rsRanks[s.symbol] = ranks[i]!;
  });
  const above = stats.filter((s) => s.aboveSma50 !== null);
  const breadth = above.length ? above.filter((s) => s.aboveSma50).length / above.length : null;
  const regime = await pool.run('regime', { handle, symbols: [benchmark], timeframe, asOfTs, breadth });

  const scanned = await Promise.all(parts.map((part) => pool.run('scan', { handle, symbols: part, timeframe, asOfTs, rsRanks, regime })));
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
  };
}

function toSignal(f: WorkerFinding, timeframe: Timeframe, rsRank: number | null, avgDollarVolume: number | null): Signal {
  const detectedAt = iso(f.detectedTs);
  return {
    id: signalId(f.symbol, f.patternType, detectedAt),
    symbol: f.symbol,
    timeframe,
    patternFamily: f.patternFamily,
    patternType: f.patternType,
    direction: f.direction,
    trendRegime: f.trendRegime,
    breakoutState: f.state,
    triggerPrice: round(f.pivot, 4),
    target1: round(f.target1, 4),
    stopLoss: Number.isFinite(f.stopLoss) ? round(f.stopLoss, 4) : null,
    finalScore: f.finalScore,
    confidence: f.confidence,
    scoreBand: f.band,
    reasons: f.reasons,
    detectedAt,
    price: f.close,
    distancePct: round(f.distancePct, 2),
    breakoutVolumeRatio: f.breakoutVolumeRatio === null ? null : round(f.breakoutVolumeRatio, 2),
    rsRank,
    avgDollarVolume: avgDollarVolume !== null && Number.isFinite(avgDollarVolume) ? Math.round(avgDollarVolume) : null,
    geometry: {
      start: iso(f.geometry.startTs),
      end: iso(f.geometry.endTs),
      depthPct: round(f.geometry.depthPct, 2),
      lengthBars: f.geometry.lengthBars,
      contractions: f.geometry.contractions,
    },
    components: f.components,
  };
}

export interface PersistDeps extends ScanDeps {
  scans: ScansRepository;
  ledger: LedgerRepository;
  bus: EventBus;
  log: Logger;
}

const inFlight = new WeakMap<ScansRepository, Map<Timeframe, Promise<string>>>();

/**
 * Runs a universe scan, persists it with its signals in one transaction, and
 * announces new signals (`breakouts.new`) and state changes
 * (`breakouts.state_change`) on the bus. One run per timeframe at a time: a
 * second caller shares the run in progress. Resolves to the run id.
 */
export function scanAndPersist(deps: PersistDeps, timeframe: Timeframe): Promise<string> {
  let running = inFlight.get(deps.scans);
  if (!running) inFlight.set(deps.scans, (running = new Map()));
  const existing = running.get(timeframe);
  if (existing) return existing;
  const job = (async () => {
    const result = await runScan(deps, { timeframe });
    const runId = newId('run');
    const alerts = await alertsAt({ scans: deps.scans, provider: deps.marketData.provider }, timeframe, result.signals, result.regime?.regime ?? null, result.asOf);
    const { newSignals, changes } = await deps.scans.saveRun(runId, result, deps.marketData.provider.name, alerts.candidates);
    for (const signal of newSignals) deps.bus.publish('breakouts.new', { signal });
    for (const { signal, from, to } of changes) {
      deps.bus.publish('breakouts.state_change', { signalId: signal.id, symbol: signal.symbol, from, to, price: signal.price, at: result.asOf });
    }
    await trackOpenSignals(deps, runId, result);
    // The run is persisted: a failure to resolve outcomes is logged and retried after the next run.
    await resolveOutcomes(deps).catch((error) => deps.log.error('outcome resolution failed', { error: String(error) }));
    await deps.ledger.checkpoint(); // a published head after every run
    return runId;
  })().finally(() => running!.delete(timeframe));
  running.set(timeframe, job);
  return job;
}

/**
 * Signals persisted earlier that this run no longer lists (their setup left the
 * live window) still move: their lifecycle is replayed in the pool up to the
 * run's bar, and every transition is recorded and announced.
 */
async function trackOpenSignals(deps: PersistDeps, runId: string, result: ScanResult): Promise<void> {
  const open = await deps.scans.openSignals(result.timeframe, result.signals.map((s) => s.id));
  if (open.length === 0) return;
  const setups = open.map((row) => ({
    id: row.id,
    symbol: row.symbol,
    direction: row.direction as 'long' | 'short',
    trigger: row.triggerPrice,
    target1: row.target1,
    stopLoss: row.stopLoss,
    patternEndTs: Date.parse((row.geometry as { end: string }).end),
  }));
  const asOfTs = Date.parse(result.asOf);
  const handle = deps.barStore.handle();
  const tracked = (await Promise.all(batches(setups, deps.pool.threads * 4).map((part) => deps.pool.run('track', { handle, timeframe: result.timeframe, asOfTs, setups: part })))).flat();
  const rows = new Map(open.map((r) => [r.id, r]));
  const changes: { signalId: string; from: string; to: string; price: number; at: Date }[] = [];
  for (const t of tracked) {
    const row = rows.get(t.id)!;
    // The replay starts at `forming`; only what happens after the stored state counts.
    const from = t.transitions.findIndex((x) => x.from === row.state);
    if (t.state === row.state || from < 0) continue;
    for (const x of t.transitions.slice(from)) changes.push({ signalId: t.id, from: x.from, to: x.to, price: x.price, at: new Date(x.ts) });
  }
  await deps.scans.recordTransitions(runId, changes);
  for (const c of changes) {
    deps.bus.publish('breakouts.state_change', { signalId: c.signalId, symbol: rows.get(c.signalId)!.symbol, from: c.from, to: c.to, price: c.price, at: c.at.toISOString() });
  }
}
