/**
 * bench/scan: the full universe scan (S&P 500 ∪ Nasdaq-100 on the synthetic
 * market, ~1,980 daily bars a symbol, and 1,000 as the yardstick) on one thread in-process vs the worker
 * pool with 1 and 2 threads, per timeframe; and /api/breakouts next to a bare
 * Bun.serve handler returning the same bytes (wrk, loopback). Goals: full scan
 * ≤ 150 ms on 2 cores; /api/breakouts ≥ 0.7× the bare handler.
 *
 * Issue 14: the live scan on a new bar, side by side: the same store one
 * session later (the shared incremental state advances one bar per symbol)
 * vs a fresh store (every indicator over the whole history, as every scan
 * paid before the incremental state). Goal ≤ 50 ms for the daily universe on
 * 2 cores. And /api/breakouts?asOf= on a warm server, p50/p99 over random
 * dates of the last two years (synthetic, and the ~500 real csv files of
 * shared/data when present). Goal p50 ≤ 300 ms.
 *
 *   bun run bench/scan.ts [--smoke]
 */
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { defaultUniverse, runScan } from '../src/jobs/scan';
import { scanBars } from '../src/kernels/scan';
import { createLogger } from '../src/log';
import { createPool } from '../src/pool';
import type { Timeframe } from '../src/domain/signal';
import { createSyntheticProvider } from '../src/providers/synthetic';
import { createServices, type Services } from '../src/services';
import { openDatabase } from '../src/db/client';
import { BarsRepository } from '../src/db/repositories/bars';
import { MarketData } from '../src/market-data';
import { DEFAULT_BENCHMARK } from '../src/providers/universe';
import { BarStore } from '../src/store';
import { seededRandom } from '../test/helpers/random';
import { haveWrk, printTable, realCsvDir, smoke, wrk } from './lib';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchScan(): Promise<void> {
  const runs = smoke ? 2 : 7;
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTA: '1000000000', RATE_LIMIT_COSTLY_QUOTA: '1000000000', POOL_SIZE: '2' });
  const services = await createServices(config, { pgliteDir: ':memory:', log: createLogger('silent'), warmPool: true });
  const rows = await scanRows(services, ['daily', '4h', '1h'], runs);
  // The yardstick: 1000 daily bars a symbol (the simulated market as of 2022-12-22).
  const short = await createServices(config, {
    pgliteDir: ':memory:',
    log: createLogger('silent'),
    warmPool: true,
    provider: createSyntheticProvider({ now: () => Date.UTC(2022, 11, 22, 22) }),
  });
  rows.push(...(await scanRows(short, ['daily'], runs)));
  await short.close();
  printTable(`bench/scan — full universe scan, median of ${runs} (pool figures include RS ranking, regime, dispatch and result copies)`, rows);
  printTable(`bench/scan — the daily universe scan on a new bar, pool of 2 threads, median of ${runs} sessions (same run, side by side)`, await newBarRows(runs));
  printTable(`bench/scan — GET /api/breakouts?asOf= on a warm server (in-process), random dates of two years`, await asOfRows(smoke ? 10 : 60));

  if (!haveWrk()) return void (await services.close());
  const app = createApp(services).listen({ port: 0, hostname: '127.0.0.1' });
  const path = '/api/breakouts?limit=50';
  const payload = await (await fetch(`http://127.0.0.1:${app.server!.port}${path}`)).text();
  const bare = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(payload, { headers: { 'content-type': 'application/json;charset=utf-8' } }) });
  const seconds = smoke ? 2 : 10;
  const b = await wrk(`http://127.0.0.1:${bare.port}${path}`, { seconds, connections: 64 });
  bare.stop(true);
  const a = await wrk(`http://127.0.0.1:${app.server!.port}${path}`, { seconds, connections: 64 });
  printTable(`bench/scan — ${path} vs bare Bun.serve of the same ${payload.length} bytes (wrk -t1 -c64 -d${seconds}s)`, [
    { target: 'bare Bun.serve', 'req/s': Math.round(b.requestsPerSec), 'p50 ms': b.p50Ms, 'p99 ms': b.p99Ms, ratio: '1.00' },
    { target: 'breakline /api/breakouts', 'req/s': Math.round(a.requestsPerSec), 'p50 ms': a.p50Ms, 'p99 ms': a.p99Ms, ratio: (a.requestsPerSec / b.requestsPerSec).toFixed(2) },
  ]);
  await app.stop();
  await services.close();
}

async function scanRows(services: Services, timeframes: Timeframe[], runs: number) {
  const { marketData, barStore } = services;
  const symbols = await defaultUniverse(marketData);
  const rows = [];
  for (const timeframe of timeframes) {
    await runScan({ marketData, barStore, pool: services.pool }, { timeframe }); // loads bars, warms workers
    const bars = await marketData.bars('AAPL', timeframe);
    const single: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      for (const symbol of symbols) {
        const series = barStore.get(symbol, timeframe)!;
        scanBars(series, { asOf: series.ts.length - 1, rsRank: 50, regime: null });
      }
      single.push(performance.now() - t);
    }
    const pooled: Record<number, number[]> = { 1: [], 2: [] };
    for (const threads of [1, 2]) {
      const pool = threads === 2 ? services.pool : createPool({ threads: 1, warm: true });
      await runScan({ marketData, barStore, pool }, { timeframe });
      for (let r = 0; r < runs; r++) pooled[threads]!.push((await runScan({ marketData, barStore, pool }, { timeframe })).durationMs);
      if (threads === 1) await pool.destroy();
    }
    rows.push({
      timeframe,
      symbols: symbols.length,
      'bars/symbol': bars.ts.length,
      'main thread ms (kernels only)': Math.round(median(single)),
      'pool 1 thread ms': Math.round(median(pooled[1]!)),
      'pool 2 threads ms': Math.round(median(pooled[2]!)),
    });
  }
  return rows;
}

/**
 * The synthetic clock moves one session on; the incremental store advances
 * one bar per symbol, a fresh store computes everything from scratch.
 */
export async function newBarRows(runs: number) {
  const pool = createPool({ threads: 2, warm: true });
  const database = await openDatabase({ dataDir: ':memory:' });
  let clock = Date.UTC(2026, 5, 1, 21, 0);
  const provider = createSyntheticProvider({ seed: 42, now: () => clock });
  const deps = (barStore: BarStore) => ({ barStore, pool, marketData: new MarketData({ provider, repository: new BarsRepository(database.db), store: barStore, ttlMs: 1e12, log: createLogger('silent') }) });
  const incremental = deps(new BarStore());
  const symbols = await defaultUniverse(incremental.marketData);
  // The new session's bars go straight into the store (as a refresh by the market-data layer puts them).
  const load = async (d: ReturnType<typeof deps>) => {
    for (const symbol of [DEFAULT_BENCHMARK, ...symbols]) d.barStore.put(await provider.bars({ symbol, timeframe: 'daily', to: clock }));
    await Promise.all([DEFAULT_BENCHMARK, ...symbols].map((symbol) => d.marketData.bars(symbol, 'daily'))); // held: runScan reads the store
  };
  await load(incremental);
  await runScan(incremental, { timeframe: 'daily', symbols });
  const times = { incremental: [] as number[], scratch: [] as number[] };
  const cpu = { incremental: [] as number[], scratch: [] as number[] };
  // Wall time, and the CPU time of every thread (the machine may be shared: CPU ÷ 2 is what 2 idle cores would take).
  const timed = async (d: ReturnType<typeof deps>, into: 'incremental' | 'scratch') => {
    const before = process.cpuUsage();
    times[into].push((await runScan(d, { timeframe: 'daily', symbols })).durationMs);
    const used = process.cpuUsage(before);
    cpu[into].push((used.user + used.system) / 1000);
  };
  let bars = 0;
  for (let r = 0; r < runs; r++) {
    clock += (new Date(clock).getUTCDay() === 5 ? 3 : 1) * 86_400_000;
    await load(incremental);
    const scratch = deps(new BarStore());
    await load(scratch);
    await timed(incremental, 'incremental');
    await timed(scratch, 'scratch');
    bars = incremental.barStore.get('AAPL', 'daily')!.ts.length;
  }
  await pool.destroy();
  await database.close();
  const row = (scan: string, into: 'incremental' | 'scratch') => ({ scan, symbols: symbols.length, 'bars/symbol': bars, 'ms (median)': Math.round(median(times[into])), 'CPU ms, all threads (median)': Math.round(median(cpu[into])) });
  return [row('from scratch (every indicator over the history: the scan before)', 'scratch'), row('incremental (the shared state advances one bar)', 'incremental')];
}

/** p50/p99 of /api/breakouts?asOf= over random dates, after one warm-up request loads the bars. */
async function asOfRows(requests: number) {
  const rows = [];
  const markets: { name: string; env: Record<string, string>; base: number }[] = [{ name: 'synthetic', env: {}, base: Date.UTC(2024, 10, 1) }];
  const real = realCsvDir();
  if (real) markets.push({ name: `csv (${real.files} real files)`, env: { MARKET_DATA_PROVIDER: 'csv', CSV_DIR: real.dir, BARS_CACHE_TTL_SECONDS: '86400' }, base: Date.UTC(2022, 2, 1) });
  for (const market of markets) {
    const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTA: '1000000000', RATE_LIMIT_COSTLY_QUOTA: '1000000000', POOL_SIZE: '2', ...market.env });
    const services = await createServices(config, { pgliteDir: ':memory:', log: createLogger('silent'), warmPool: true });
    const app = createApp(services);
    const get = async (path: string) => {
      const started = performance.now();
      const response = await app.handle(new Request(`http://localhost${path}`));
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
      return performance.now() - started;
    };
    const cold = await get('/api/breakouts?asOf=2023-06-30');
    const random = seededRandom(7);
    const times: number[] = [];
    const before = process.cpuUsage();
    for (let k = 0; k < requests; k++) times.push(await get(`/api/breakouts?asOf=${new Date(market.base + Math.floor(random() * 700) * 86_400_000).toISOString().slice(0, 10)}`));
    const used = process.cpuUsage(before);
    times.sort((a, b) => a - b);
    const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]!);
    // CPU of every thread a request (the machine may be shared: wall times wait for the cores).
    rows.push({ market: market.name, 'first (cold) ms': Math.round(cold), requests, 'p50 ms': q(0.5), 'p99 ms': q(0.99), 'CPU ms a request, all threads': Math.round((used.user + used.system) / 1000 / requests) });
    await services.close();
  }
  return rows;
}

if (import.meta.main) await benchScan();
