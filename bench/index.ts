/**
 * Runs the benchmarks in turn; each prints its own table. `--smoke` shortens
 * them (the numbers of a smoke run mean little). Names pick some, in this
 * order: `bun run bench/index.ts --smoke ledger durability` (what CI runs);
 * none runs all. Flags pass through to the benches, with their values
 * (`bun run bench/index.ts boot --tree main=/tmp/x`: bench/args).
 */
import { benchNames } from './args';
import { benchBoot } from './boot';
import { benchCluster } from './cluster';
import { benchConsole } from './console';
import { benchAuth } from './auth';
import { benchHttp } from './http';
import { benchDurability } from './durability';
import { benchExplain } from './explain';
import { benchForecast } from './forecast';
import { benchGraphql } from './graphql';
import { benchKernels } from './kernels';
import { benchLedger } from './ledger';
import { benchLive } from './live';
import { benchMetrics } from './metrics';
import { benchOptions } from './options';
import { benchRedisOutage } from './redis-outage';
import { benchReplay } from './replay';
import { benchScan } from './scan';
import { benchStall } from './stall';
import { benchSse } from './sse';
import { benchSseLoops } from './sse-loops';
import { benchSynthetic } from './synthetic';

const BENCHES: Record<string, () => Promise<unknown>> = {
  synthetic: benchSynthetic,
  kernels: benchKernels,
  http: benchHttp,
  auth: benchAuth,
  graphql: benchGraphql,
  scan: benchScan,
  replay: benchReplay,
  options: benchOptions,
  forecast: benchForecast,
  ledger: benchLedger,
  boot: benchBoot,
  metrics: benchMetrics,
  explain: benchExplain,
  stall: benchStall,
  sse: benchSse,
  'sse-loops': benchSseLoops,
  cluster: benchCluster,
  'redis-outage': benchRedisOutage,
  live: benchLive,
  // Needs /usr/bin/chromium (skipped without it); exits 1 when a Lighthouse score is below 90.
  console: benchConsole,
  // Exits 1 on a lost acknowledged record or a broken chain.
  durability: async () => {
    if (!(await benchDurability())) process.exitCode = 1;
  },
};

const { named, unknown } = benchNames(process.argv.slice(2), Object.keys(BENCHES));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; one of: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(64);
}
for (const [name, run] of Object.entries(BENCHES)) if (named.length === 0 || named.includes(name)) await run();
