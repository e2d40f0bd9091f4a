/**
 * One client must not stall the server (issue 12): the latency of
 * `/api/health` from a second client while 40 concurrent requests hit the
 * ledger's costly routes, over a real loopback socket, on a ledger of 20,000
 * records (2,000 with --smoke). Side by side in one run:
 *
 * - idle: health alone;
 * - 40 × verify, each its own full pass (`verifyLedger` called 40 times, as
 *   the route did before issue 12) — run in-process next to the server;
 * - 40 × GET /api/transparency/verify (today: one pass, reused per head);
 * - 40 × GET /api/transparency/ledger.csv (streamed in chunks of 250 signals).
 *
 * Run: `bun run bench/stall.ts [--smoke]`. Prints; asserts nothing.
 */
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import type { LedgerEntry } from '../src/db/repositories/ledger';
import { verifyLedger } from '../src/ledger/verify';
import { createLogger } from '../src/log';
import { createServices } from '../src/services';
import { printTable, smoke } from './lib';

const RECORDS = smoke ? 2_000 : 20_000;
const CONCURRENT = 40;

function entries(from: number, n: number): LedgerEntry[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const id = `STALL${i}-flat_base-2026-01-02T00:00:00.000Z`;
    return { kind: 'signal' as const, signalId: id, patternType: 'flat_base', scoreBand: 'strong', finalScore: 75, detectedAt: new Date('2026-01-02T00:00:00Z'), data: { id, symbol: `S${i % 500}`, triggerPrice: 100 + (i % 50), reasons: ['base depth 12.4% over 7 weeks'] } };
  });
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function benchStall(): Promise<void> {
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTA: '1000000000', RATE_LIMIT_COSTLY_QUOTA: '1000000000', POOL_SIZE: '2' });
  const services = await createServices(config, { pgliteDir: ':memory:', log: createLogger('silent') });
  for (let i = 0; i < RECORDS; i += 1000) await services.ledger.append(entries(i, Math.min(1000, RECORDS - i)));
  const app = createApp(services).listen({ port: 0, hostname: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server!.port}`;

  /** Health latencies (ms) sampled one after another while `load` runs. */
  const during = async (load: () => Promise<unknown>) => {
    let done = false;
    const started = performance.now();
    const running = load().finally(() => (done = true));
    const times: number[] = [];
    while (!done || times.length < 5) {
      const t = performance.now();
      await (await fetch(`${base}/api/health`)).arrayBuffer();
      times.push(performance.now() - t);
    }
    await running;
    times.sort((a, b) => a - b);
    return { 'load (s)': (performance.now() - started) / 1000, 'health p50 (ms)': quantile(times, 0.5), 'health max (ms)': times[times.length - 1]!, samples: times.length };
  };
  const burst = (path: string) => () => Promise.all(Array.from({ length: CONCURRENT }, () => fetch(`${base}${path}`).then((r) => r.arrayBuffer())));

  await (await fetch(`${base}/api/health`)).arrayBuffer();
  const rows = [
    { case: 'idle', ...(await during(() => Bun.sleep(300))) },
    { case: `${CONCURRENT} × own full pass (route before)`, ...(await during(() => Promise.all(Array.from({ length: CONCURRENT }, () => verifyLedger(services.ledger))))) },
    { case: `${CONCURRENT} × GET verify`, ...(await during(burst('/api/transparency/verify'))) },
    { case: `${CONCURRENT} × GET ledger.csv`, ...(await during(burst('/api/transparency/ledger.csv'))) },
  ];
  printTable(`Health latency while one client hits the costly ledger routes (${RECORDS.toLocaleString('en-US')} records, PGlite)`, rows);
  await app.stop(true);
  await services.close();
}

if (import.meta.main) await benchStall();
