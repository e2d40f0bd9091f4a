/**
 * bench/scan: the full universe scan (S&P 500 ∪ Nasdaq-100 on the synthetic
 * market, ~1,980 daily bars a symbol, and 1,000 as the yardstick) on one thread in-process vs the worker
 * pool with 1 and 2 threads, per timeframe; and /api/breakouts next to a bare
 * Bun.serve handler returning the same bytes (wrk, loopback). Goals: full scan
 * ≤ 150 ms on 2 cores; /api/breakouts ≥ 0.7× the bare handler.
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
import { haveWrk, printTable, smoke, wrk } from './lib';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchScan(): Promise<void> {
  const runs = smoke ? 2 : 7;
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTA: '1000000000', POOL_SIZE: '2' });
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

if (import.meta.main) await benchScan();
