/**
 * @module cli/capacity/work-sweep
 * The sweep's two laws of background work, measured in this process on the
 * synthetic market (no server: a scan and a replay are the same code in any
 * instance):
 *
 * - scan time against universe size: the daily scan (jobs/scan `runScan`)
 *   over 100 … 2,000 stocks (cli/capacity/widened-universe repeats the 531
 *   real ones under other names past them), each size on a fresh bar store
 *   so every indicator is computed from the whole history (what the first
 *   scan after a boot costs; later scans advance the shared state a bar);
 * - replay time against years of history: a point-in-time replay
 *   (jobs/replay/engine, without writing its ledger) of `replaySymbols`
 *   stocks over the last 1 … N years.
 *
 * Each point is the wall time and the CPU time of every thread of this
 * process (on a shared machine the wall time says little; the CPU time is
 * what the work costs); the bars' loading is not timed.
 */
import { availableParallelism } from 'node:os';
import { openDatabase } from '../../db/client';
import { BarsRepository } from '../../db/repositories/bars';
import { recentRange } from '../../jobs/replay/boot';
import { prepareReplay, replayChunks } from '../../jobs/replay/engine';
import { runScan } from '../../jobs/scan';
import { createLogger } from '../../log';
import { MarketData } from '../../market-data';
import { createPool, type KernelPool } from '../../pool';
import { createSyntheticProvider } from '../../providers/synthetic';
import { DEFAULT_BENCHMARK } from '../../providers/universe';
import { BarStore } from '../../store';
import { lawOf, type ScalingLaw } from './laws';
import { WidenedUniverse } from './widened-universe';

export interface WorkPoint {
  x: number;
  wallMs: number;
  cpuMs: number;
}

export interface WorkSweepOptions {
  universeSizes: number[];
  years: number[];
  replaySymbols: number;
  poolThreads?: number;
  /** performance.now() past which no new point starts. */
  deadline: number;
}

/** Wall and CPU time (all threads of the process) of `work`. */
async function timed(work: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** The scan law and the replay law, each over the points measured before the deadline. */
export async function sweepWork(options: WorkSweepOptions, progress: (line: string) => void): Promise<{ laws: ScalingLaw[]; stopped: string[] }> {
  const threads = options.poolThreads ?? availableParallelism();
  const pool = createPool({ threads, warm: true, taskTimeoutMs: 600_000 });
  const database = await openDatabase({ dataDir: ':memory:' });
  const largest = Math.max(0, ...options.universeSizes);
  const provider = new WidenedUniverse(createSyntheticProvider(), Math.max(largest, options.replaySymbols));
  const stocks = await provider.stocks();
  const deps = () => {
    const barStore = new BarStore();
    const marketData = new MarketData({ provider, repository: new BarsRepository(database.db), store: barStore, ttlMs: 1e12, log: createLogger('silent') });
    return { barStore, marketData, pool };
  };
  const laws: ScalingLaw[] = [];
  const stopped: string[] = [];
  try {
    const scans = await scanPoints(deps, stocks, options, progress);
    if (options.universeSizes.length) stopped.push(`universe: ${scans.stopped}`);
    laws.push(...workLaws(scans.points, `daily scan (pool of ${threads})`, 'stocks', 'stock', 'ms'));
    const replays = await replayPoints(deps, stocks.slice(0, options.replaySymbols), options, progress);
    if (options.years.length) stopped.push(`years: ${replays.stopped}`);
    laws.push(...workLaws(replays.points, `replay of ${options.replaySymbols} stocks (pool of ${threads}, background lane)`, 'years', 'year of history', 's'));
  } finally {
    await pool.destroy();
    await database.close();
  }
  return { laws, stopped };
}

type Deps = () => { barStore: BarStore; marketData: MarketData; pool: KernelPool };

async function scanPoints(deps: Deps, stocks: string[], options: WorkSweepOptions, progress: (line: string) => void) {
  const points: WorkPoint[] = [];
  if (options.universeSizes.length === 0) return { points, stopped: 'not asked' };
  if (performance.now() > options.deadline) return { points, stopped: 'time limit before the first scan' };
  // A first scan starts the pool's threads and compiles the kernels: not a point.
  await runScan(deps(), { timeframe: 'daily', symbols: stocks.slice(0, 20) });
  for (const size of options.universeSizes) {
    if (performance.now() > options.deadline) return { points, stopped: `time limit before ${size} stocks` };
    const d = deps();
    const symbols = stocks.slice(0, size);
    await Promise.all([DEFAULT_BENCHMARK, ...symbols].map((s) => d.marketData.bars(s, 'daily')));
    const time = await timed(() => runScan(d, { timeframe: 'daily', symbols }));
    progress(`scan of ${size} stocks: ${Math.round(time.wallMs)} ms (CPU ${Math.round(time.cpuMs)} ms)`);
    points.push({ x: size, ...time });
  }
  return { points, stopped: 'every size measured' };
}

async function replayPoints(deps: Deps, symbols: string[], options: WorkSweepOptions, progress: (line: string) => void) {
  const points: WorkPoint[] = [];
  if (options.years.length === 0) return { points, stopped: 'not asked' };
  if (performance.now() > options.deadline) return { points, stopped: 'time limit before the first replay' };
  // A first replay starts the pool's background threads and compiles the replay's kernels: not a point.
  await replay(deps(), symbols.slice(0, 2), Math.min(...options.years));
  for (const years of options.years) {
    if (performance.now() > options.deadline) return { points, stopped: `time limit before ${years} years` };
    const { range, time } = await replay(deps(), symbols, years);
    progress(`replay of ${symbols.length} stocks over ${years} years (${range.from} … ${range.to}): ${round(time.wallMs / 1000)} s (CPU ${round(time.cpuMs / 1000)} s)`);
    points.push({ x: years, wallMs: time.wallMs, cpuMs: time.cpuMs });
  }
  return { points, stopped: 'every length measured' };
}

/** One replay (without its ledger) of `symbols` over the last `years` whole years, timed from the bars loaded. */
async function replay(d: ReturnType<Deps>, symbols: string[], years: number) {
  const range = await recentRange(d.marketData, 'daily', years);
  await Promise.all([DEFAULT_BENCHMARK, ...symbols].map((s) => d.marketData.bars(s, 'daily')));
  const time = await timed(async () => {
    const prepared = await prepareReplay(d, { timeframe: 'daily', ...range, universe: { kind: 'symbols', symbols }, benchmark: DEFAULT_BENCHMARK });
    for await (const _chunk of replayChunks(d, prepared));
  });
  return { range, time };
}

/**
 * The wall-time and CPU-time lines of a work's points, in `unit` (ms or s)
 * per `per` (one of `x`).
 * @example
 * workLaws([{ x: 100, wallMs: 300, cpuMs: 200 }, { x: 200, wallMs: 500, cpuMs: 400 }], 'daily scan', 'stocks', 'stock', 'ms')
 *   .map((l) => l.perUnit); // => ['2 ms a stock', '2 CPU ms a stock']
 */
export function workLaws(points: readonly WorkPoint[], what: string, x: string, per: string, unit: 'ms' | 's'): ScalingLaw[] {
  const scale = unit === 's' ? 1 / 1000 : 1;
  return [
    lawOf(points.map((p) => [p.x, p.wallMs * scale]), `${what} time`, x, `wall ${unit}`, (b) => `${round(b)} ${unit} a ${per}`),
    lawOf(points.map((p) => [p.x, p.cpuMs * scale]), `${what} CPU`, x, `CPU ${unit}`, (b) => `${round(b)} CPU ${unit} a ${per}`),
  ].filter((l): l is ScalingLaw => l !== undefined);
}

const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 100) / 100);
