/**
 * bench/http: throughput and latency of /api/bars and /api/snapshot next to a
 * bare `Bun.serve` handler that returns the very same JSON bytes, in one run, on
 * loopback with wrk (1 thread, 64 connections). The ratio is Breakline's
 * requests/s over the bare handler's. Goal: ≥ 0.7.
 *
 *   bun run bench/http.ts            # 10 s per target
 *   bun run bench/http.ts --smoke    # 2 s per target
 */
import { createApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/log';
import { createServices } from '../src/services';
import { haveWrk, printTable, smoke, wrk } from './lib';

export async function benchHttp(): Promise<void> {
  if (!haveWrk()) {
    console.log('bench/http: wrk not found (apt-get install -y wrk); skipped');
    return;
  }
  const seconds = smoke ? 2 : 10;
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTA: '1000000000', PORT: '0', HOST: '127.0.0.1' });
  const services = await createServices(config, { pgliteDir: ':memory:', log: createLogger('silent') });
  const app = createApp(services).listen({ port: 0, hostname: '127.0.0.1' });
  const base = `http://127.0.0.1:${app.server!.port}`;

  const targets = ['/api/bars?symbol=AAPL&range=6mo', '/api/snapshot?symbol=AAPL'];
  const rows = [];
  for (const path of targets) {
    const warm = await fetch(base + path);
    if (warm.status !== 200) throw new Error(`${path} answered ${warm.status}`);
    const payload = await warm.text();
    const bare = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Response(payload, { headers: { 'content-type': 'application/json;charset=utf-8' } }),
    });
    const bareResult = await wrk(`http://127.0.0.1:${bare.port}${path}`, { seconds, connections: 64 });
    bare.stop(true);
    const appResult = await wrk(base + path, { seconds, connections: 64 });
    rows.push(
      { target: `bare Bun.serve ${path.split('?')[0]}`, 'req/s': Math.round(bareResult.requestsPerSec), 'p50 ms': bareResult.p50Ms, 'p99 ms': bareResult.p99Ms, ratio: '1.00', 'non-2xx': bareResult.non2xx },
      {
        target: `breakline ${path.split('?')[0]}`,
        'req/s': Math.round(appResult.requestsPerSec),
        'p50 ms': appResult.p50Ms,
        'p99 ms': appResult.p99Ms,
        ratio: (appResult.requestsPerSec / bareResult.requestsPerSec).toFixed(2),
        'non-2xx': appResult.non2xx,
      },
    );
  }
  printTable(`bench/http — wrk -t1 -c64 -d${seconds}s, payload identical, same process (goal ratio ≥ 0.70)`, rows);
  await app.stop();
  await services.close();
}

if (import.meta.main) await benchHttp();
