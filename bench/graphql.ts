/**
 * bench/graphql: the breakouts list through GraphQL next to GET /api/breakouts
 * for the same page of signals, in one run, on loopback with wrk (1 thread,
 * 32 connections, GET for both: GraphQL's query in the query string, as a
 * persisted or cached client sends it). Goal: GraphQL ≥ 0.5× REST's requests/s.
 * Each GraphQL query twice: with its answers kept per persisted run
 * (services.graphql.answers, as served) and with nothing kept (executed per
 * request: the store swapped for one that keeps nothing). Rounds interleave
 * the targets; the table has each one's median.
 * Then a nested query's latency in-process: 50 signals with each symbol's
 * snapshot and earnings (DataLoader), p50/p90 over repeated runs.
 *
 *   bun run bench/graphql.ts            # 3 rounds of 5 s per target, 50 nested runs
 *   bun run bench/graphql.ts --smoke    # 1 round of 2 s per target, 10 nested runs
 */
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { Lru } from '../src/lru';
import { createServices } from '../src/services';
import { haveWrk, printTable, smoke, wrk } from './lib';

/** Every scalar field of a ranked signal (the REST list carries them, and geometry and components besides). */
const SIGNAL_FIELDS =
  'id symbol timeframe patternFamily patternType direction trendRegime breakoutState triggerPrice target1 stopLoss finalScore confidence scoreBand reasons detectedAt price distancePct breakoutVolumeRatio rsRank avgDollarVolume';

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function benchGraphql(): Promise<void> {
  const seconds = smoke ? 2 : 5;
  const rounds = smoke ? 1 : 3;
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTA: '1000000000', RATE_LIMIT_COSTLY_QUOTA: '1000000000', GRAPHQL_MAX_COST_PER_TIER: '100000,100000,100000', PORT: '0', HOST: '127.0.0.1' });
  const services = await createServices(config, { pgliteDir: ':memory:', log: createLogger('silent') });
  await services.runs.persist('daily');
  const app = createApp(services).listen({ port: 0, hostname: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server!.port}`;
  const json = { accept: 'application/json' };

  const kept = services.graphql.answers;
  const keptNothing = new Lru<string, typeof kept extends Lru<string, infer A> ? A : never>({ maxEntries: 0 });
  const signals = `/api/graphql?query=${encodeURIComponent(`{ signals(first: 50) { edges { node { ${SIGNAL_FIELDS} } } } }`)}`;
  const breakouts = `/api/graphql?query=${encodeURIComponent(`{ breakouts(limit: 50) { rankedSignals { ${SIGNAL_FIELDS} } } }`)}`;
  /** Name, path, and whether answers are kept while it runs. */
  const targets: [string, string, boolean][] = [
    ['REST GET /api/breakouts?limit=50', '/api/breakouts?limit=50', true],
    ['GraphQL signals(first: 50) { edges { node { …scalars } } }, executed per request', signals, false],
    ['GraphQL signals(first: 50) { edges { node { …scalars } } }, answer kept per run', signals, true],
    ['GraphQL breakouts(limit: 50) { rankedSignals { …scalars } }, executed per request', breakouts, false],
    ['GraphQL breakouts(limit: 50) { rankedSignals { …scalars } }, answer kept per run', breakouts, true],
  ];
  for (const [, path] of targets) {
    const warm = await fetch(base + path, { headers: json });
    const body = await warm.text();
    if (warm.status !== 200 || body.includes('"errors"')) throw new Error(`${path} answered ${warm.status}: ${body.slice(0, 300)}`);
  }
  const rows = [];
  if (!haveWrk()) {
    console.log('bench/graphql: wrk not found (apt-get install -y wrk); throughput skipped');
  } else {
    const results = targets.map(() => [] as Awaited<ReturnType<typeof wrk>>[]);
    for (let round = 0; round < rounds; round++) {
      for (const [i, [, path, keep]] of targets.entries()) {
        services.graphql.answers = keep ? kept : keptNothing;
        results[i]!.push(await wrk(base + path, { seconds, connections: 32, headers: json }));
      }
    }
    services.graphql.answers = kept;
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const rest = median(results[0]!.map((r) => r.requestsPerSec));
    for (const [i, [name]] of targets.entries()) {
      const runs = results[i]!;
      const rps = median(runs.map((r) => r.requestsPerSec));
      rows.push({ target: name, 'req/s': Math.round(rps), 'p50 ms': median(runs.map((r) => r.p50Ms)), 'p99 ms': median(runs.map((r) => r.p99Ms)), '÷ REST': (rps / rest).toFixed(2), 'non-2xx': runs.reduce((n, r) => n + r.non2xx, 0) });
    }
    printTable(`bench/graphql — wrk -t1 -c32 -d${seconds}s, the same 50 signals, median of ${rounds} interleaved round(s) (goal GraphQL ≥ 0.50× REST)`, rows);
  }

  // A nested query in-process: each run a fresh request, so fresh DataLoaders (the market data layer's own cache stays warm, as in service).
  const nested = `{ signals(first: 50) { totalCount edges { node { id symbol finalScore snapshot { price changePercent } earnings { symbol } } } } }`;
  const runs = smoke ? 10 : 50;
  const times: number[] = [];
  for (let i = 0; i < runs + 5; i++) {
    const start = Bun.nanoseconds();
    const response = await app.handle(new Request(`${base}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: nested }) }));
    const text = await response.text();
    if (i === 0 && (response.status !== 200 || text.includes('"errors"'))) throw new Error(`nested query: ${text.slice(0, 300)}`);
    if (i >= 5) times.push((Bun.nanoseconds() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  // The same data by REST: the page of signals, then each distinct symbol's snapshot and earnings (in parallel, as a client would).
  const restTimes: number[] = [];
  const get = (path: string) => app.handle(new Request(`${base}${path}`)).then((r) => r.json() as Promise<{ rankedSignals?: { symbol: string }[] }>);
  for (let i = 0; i < runs + 5; i++) {
    const start = Bun.nanoseconds();
    const page = await get('/api/breakouts?limit=50');
    const symbols = [...new Set(page.rankedSignals!.map((s) => s.symbol))];
    await Promise.all(symbols.flatMap((s) => [get(`/api/snapshot?symbol=${s}`), get(`/api/earnings?symbol=${s}`)]));
    if (i >= 5) restTimes.push((Bun.nanoseconds() - start) / 1e6);
  }
  restTimes.sort((a, b) => a - b);
  printTable(`bench/graphql — nested data in-process (${runs} runs after 5 warm-ups)`, [
    { query: 'GraphQL: 50 signals + snapshot + earnings (one request)', 'p50 ms': quantile(times, 0.5).toFixed(2), 'p90 ms': quantile(times, 0.9).toFixed(2), 'max ms': times.at(-1)!.toFixed(2) },
    { query: 'REST: /api/breakouts + /api/snapshot + /api/earnings per symbol', 'p50 ms': quantile(restTimes, 0.5).toFixed(2), 'p90 ms': quantile(restTimes, 0.9).toFixed(2), 'max ms': restTimes.at(-1)!.toFixed(2) },
  ]);
  await app.stop();
  await services.close();
}

if (import.meta.main) await benchGraphql();
