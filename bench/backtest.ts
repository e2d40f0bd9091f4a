/**
 * bench/backtest: the purged walk-forward backtest.
 *
 * 1. Single symbol, 6 months, defaults (train 60, test 20, purge 2, embargo 2):
 *    the worker task on one thread in-process (the kernel time), and the whole
 *    request in-process through the app and the pool (`app.handle`, warm).
 *    Goal ≤ 50 ms.
 * 2. Universe, defaults (6 months, 10 positions), every symbol the data holds
 *    (~500), through the job's run on a 2-thread pool, per phase; the first
 *    run also loads the bars. Goal ≤ 5 s on 2 cores. CPU: the process's, every
 *    thread (on a shared machine, wall time is mostly the others' load).
 *
 * Data: the real daily history when `shared/data` is beside the repository
 * (dieperdev stocks to 2024-03-08, SPY from marketlab, through the csv
 * provider), else the synthetic market. `--smoke`: 20 symbols, 2 runs.
 *
 *   bun run bench/backtest.ts [--smoke]
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from '../src/app';
import { loadOrCreateLocalKey, mintLocalToken } from '../src/auth/local-key';
import { loadConfig } from '../src/config';
import type { BacktestConfig, WalkForwardResponse } from '../src/domain/backtest';
import { paramsOf } from '../src/jobs/backtest-request';
import { runUniverse } from '../src/jobs/backtest-universe';
import { createLogger } from '../src/log';
import { createCsvProvider } from '../src/providers/csv';
import { createServices, type Services } from '../src/services';
import { walkForward } from '../workers/backtest';
import { printTable, smoke } from './lib';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** CPU time of the whole process (every thread) since `from`, in ms. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(from);
  return Math.round((user + system) / 100) / 10;
};
const SHARED = process.env.SHARED_DATA_DIR ?? resolve(import.meta.dir, '../../shared/data');
const CONFIG: BacktestConfig = { timeframe: 'daily', months: 6, train: 60, test: 20, purge: 2, embargo: 2, hold: 20, commission: 0.005, slippage: 5, capital: 100_000, maxPositions: 1, minTrainTrades: 5, trials: null };

/** The real stocks with SPY beside them, as one csv directory of links (removed by the caller). */
function realDirectory(): string | null {
  const stocks = join(SHARED, 'daily_yf_dieperdev');
  const spy = join(SHARED, 'daily_marketlab', 'SPY.csv');
  if (!existsSync(stocks) || !existsSync(spy)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'breakline-bench-backtest-'));
  for (const file of readdirSync(stocks)) symlinkSync(join(stocks, file), join(dir, file));
  symlinkSync(spy, join(dir, 'SPY.csv'));
  return dir;
}

export async function benchBacktest(): Promise<void> {
  const runs = smoke ? 2 : 7;
  const dir = realDirectory();
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTA: '1000000000', POOL_SIZE: '2', STATE_DIR: mkdtempSync(join(tmpdir(), 'breakline-bench-state-')) });
  const services = await createServices(config, {
    pgliteDir: ':memory:',
    log: createLogger('silent'),
    warmPool: true,
    ...(dir ? { provider: createCsvProvider({ dir }) } : {}),
  });
  const source = dir ? 'real (csv: dieperdev + SPY)' : 'synthetic';
  try {
    await single(services, runs, source);
    await universe(services, smoke ? 1 : 3, source);
  } finally {
    await services.close();
    rmSync(config.stateDir, { recursive: true, force: true });
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

async function single(services: Services, runs: number, source: string): Promise<void> {
  const { marketData, barStore } = services;
  const key = await loadOrCreateLocalKey(services.config.stateDir);
  const { token } = await mintLocalToken(key, { userId: 'bench', tier: 'pro', ttlSeconds: 3600, tierClaim: services.config.auth.tierClaim });
  const app = createApp(services);
  const rows = [];
  const results: ReturnType<typeof resultRow>[] = [];
  for (const symbol of ['AAPL', 'NVDA', 'JPM', 'XOM']) {
    const { bars } = await marketData.completeDaily(symbol);
    await marketData.completeDaily('SPY');
    const input = { handle: barStore.handle(), symbol, benchmark: 'SPY', endTs: bars.ts[bars.ts.length - 1]!, params: paramsOf(CONFIG) };
    walkForward(input); // warm
    const kernel: number[] = [];
    const kernelCpu: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      walkForward(input);
      kernel.push(performance.now() - t);
      kernelCpu.push(cpuMs(cpu));
    }
    const path = `/api/backtest/walk-forward?symbol=${symbol}`;
    const call = () => app.handle(new Request(`http://localhost${path}`, { headers: { cookie: `__session=${token}` } }));
    const first = await call();
    if (first.status !== 200) throw new Error(`${path} answered ${first.status}: ${await first.text()}`);
    const body = (await first.json()) as WalkForwardResponse;
    results.push(resultRow(symbol, body));
    const http: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      await (await call()).arrayBuffer();
      http.push(performance.now() - t);
    }
    rows.push({ symbol, bars: bars.ts.length, folds: body.folds.length, trades: body.tradeCount, 'worker task ms (1 thread)': median(kernel), 'worker task CPU ms': median(kernelCpu), 'request ms (app.handle, pool)': median(http), goal: '≤ 50' });
  }
  printTable(`bench/backtest — single symbol, 6 months, defaults; ${source}; median of ${runs}`, rows);
  printTable(`bench/backtest — single-symbol results (test windows only, net of costs; buy-and-hold over the same bars)`, results);
}

const pct = (x: number | null | undefined) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(2)}%`);
const num = (x: number | null | undefined, digits = 2) => (x === null || x === undefined ? '—' : x.toFixed(digits));

/** What a run found: the figures a reader judges it by. */
function resultRow(name: string, body: WalkForwardResponse) {
  const { metrics, benchmarks } = body;
  return {
    run: name,
    period: `${body.period.from}…${body.period.to}`,
    folds: body.folds.length,
    trades: body.tradeCount,
    return: pct(metrics.totalReturn),
    sharpe: num(metrics.sharpe),
    'max DD': pct(metrics.maxDrawdown),
    'win rate': pct(metrics.winRate),
    'exp. R': num(metrics.expectancyR),
    exposure: pct(metrics.exposure),
    PSR: num(metrics.psr, 3),
    'DSR (N)': metrics.deflatedSharpe ? `${num(metrics.deflatedSharpe.value, 3)} (${metrics.deflatedSharpe.trials})` : '—',
    'B&H symbol': pct(benchmarks.symbol?.totalReturn ?? benchmarks.universeEqualWeight?.totalReturn),
    'B&H SPY': pct(benchmarks.benchmark.totalReturn),
  };
}

async function universe(services: Services, runs: number, source: string): Promise<void> {
  const instruments = await services.marketData.instruments();
  let symbols = [...instruments.values()].filter((i) => i.kind === 'stock' && (i.indices.includes('sp500') || i.indices.includes('nasdaq100'))).map((i) => i.symbol).sort();
  if (smoke) symbols = symbols.slice(0, 20);
  const request = { symbol: 'AAPL', benchmark: 'SPY', config: { ...CONFIG, maxPositions: 10 }, symbols, universe: null };
  const rows = [];
  let last: WalkForwardResponse | null = null;
  for (let r = 0; r <= runs; r++) {
    const phases: Record<string, number> = {};
    let phase = '';
    let since = performance.now();
    const start = since;
    const cpu = process.cpuUsage();
    const progress = async (next: string) => {
      if (next === phase) return;
      const now = performance.now();
      if (phase) phases[phase] = (phases[phase] ?? 0) + now - since;
      phase = next;
      since = now;
    };
    const result = await runUniverse(services, request, progress, () => false);
    last = result;
    const end = performance.now();
    phases[phase] = (phases[phase] ?? 0) + end - since;
    rows.push({
      run: r === 0 ? 'first (loads bars)' : `warm ${r}`,
      symbols: result.universe!.tested,
      'load ms': Math.round(phases.loading ?? 0),
      'cross-section ms': Math.round(phases['cross-section'] ?? 0),
      'scan ms': Math.round(phases.scanning ?? 0),
      'evaluate ms': Math.round(phases.evaluating ?? 0),
      'total ms': Math.round(end - start),
      'CPU ms (all threads)': Math.round(cpuMs(cpu)),
      trades: result.tradeCount,
      goal: '≤ 5000',
    });
  }
  const warm = rows.slice(1).map((row) => row['total ms']);
  const warmCpu = rows.slice(1).map((row) => row['CPU ms (all threads)']);
  printTable(`bench/backtest — universe, 6 months, defaults, 2-thread pool; ${source}; warm median ${median(warm)} ms wall, ${median(warmCpu)} ms CPU; load ${loadavg()[0]!.toFixed(1)}`, rows);
  if (last) printTable('bench/backtest — universe results (one account, 10 positions; B&H symbol column: the equal-weight universe)', [resultRow(`${symbols.length} symbols`, last)]);
}

if (import.meta.main) await benchBacktest();
