/**
 * bench/explain: latency of GET /api/explain in-process (`app.handle`) over a
 * persisted daily scan of the synthetic market, side by side in one run:
 *
 * - a cache hit (same signal, facts and prompt: no model call),
 * - a cache miss answered by a loopback fake Anthropic server that replies
 *   at once (so the figure is our own cost around a model call, not a model's),
 * - GET /api/breakouts/history?limit=1 (a small database-backed read) for scale.
 *
 * Prints p50/p95/p99 and one explanation as the fake-server path writes it.
 *
 *   bun run bench/explain.ts            # full universe, 300 requests per row
 *   bun run bench/explain.ts --smoke    # 60 stocks, 30 requests per row
 */
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { createSyntheticProvider } from '../src/providers/synthetic';
import type { MarketDataProvider } from '../src/providers/types';
import { createServices } from '../src/services';
import { fakeAnthropic } from '../test/helpers/fake-models';
import { printTable, smoke } from './lib';

const quantile = (sorted: number[], p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 1000) / 1000;

export async function benchExplain(): Promise<void> {
  const fake = fakeAnthropic();
  const real = createSyntheticProvider({ seed: 42 });
  let provider: MarketDataProvider = real;
  if (smoke) {
    const all = await real.universe();
    const members = new Set(all.filter((i) => i.indices.includes('sp500')).slice(0, 60).map((i) => i.symbol));
    const universe = all.filter((i) => members.has(i.symbol) || !(i.indices.includes('sp500') || i.indices.includes('nasdaq100')));
    provider = Object.assign(Object.create(Object.getPrototypeOf(real)), real, { universe: async () => universe });
  }
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTA: '1000000000', EXPLAIN_RATE_LIMIT_QUOTA: '1000000000', ANTHROPIC_API_KEY: 'sk-bench', ANTHROPIC_BASE_URL: fake.url, POOL_SIZE: '2' });
  const services = await createServices(config, { provider, pgliteDir: ':memory:', log: createLogger('silent'), warmPool: true });
  const app = createApp(services);
  const get = async (path: string) => {
    const start = Bun.nanoseconds();
    const response = await app.handle(new Request(`http://localhost${path}`));
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${body.slice(0, 200)}`);
    return { ms: (Bun.nanoseconds() - start) / 1e6, body };
  };
  try {
    await services.runs.persist('daily');
    const signals = (await services.runs.latest('daily'))!.view.signals;
    const requests = Math.min(smoke ? 30 : 300, signals.length - 1);
    const path = (i: number) => `/api/explain?symbol=${signals[i]!.symbol}&signalId=${encodeURIComponent(signals[i]!.id)}`;
    const example = JSON.parse((await get(path(0))).body);

    const rows: Record<string, string | number>[] = [];
    const measure = async (name: string, paths: string[]) => {
      const times: number[] = [];
      for (const p of paths) times.push((await get(p)).ms);
      times.sort((a, b) => a - b);
      rows.push({ request: name, requests: times.length, 'p50 ms': quantile(times, 0.5), 'p95 ms': quantile(times, 0.95), 'p99 ms': quantile(times, 0.99) });
    };
    for (let k = 0; k < 10; k++) await get(path(0)); // warm-up
    const calls = fake.calls.length;
    await measure('explain, cache miss (fake model answers at once)', Array.from({ length: requests }, (_, i) => path(i + 1)));
    const modelCalls = fake.calls.length - calls;
    await measure('explain, cache hit (no model call)', Array.from({ length: requests }, (_, i) => path((i % requests) + 1)));
    await measure('breakouts/history?limit=1 (for scale)', Array.from({ length: requests }, () => '/api/breakouts/history?limit=1'));
    if (fake.calls.length - calls !== modelCalls) throw new Error('a cache hit called the model');
    printTable(`bench/explain — in-process app.handle, ${signals.length} signals in the persisted daily run, ${modelCalls} model calls for ${requests} misses, 0 for the hits`, rows);
    console.log('\nExample answer (fake Anthropic server, synthetic market):');
    console.log(JSON.stringify({ symbol: example.symbol, patternType: example.patternType, signalId: example.signalId, bullets: example.bullets, modelUsed: example.modelUsed, cacheHitRatio: example.cacheHitRatio, cached: example.cached }, null, 2));
  } finally {
    fake.stop();
    await services.close();
  }
}

if (import.meta.main) await benchExplain();
