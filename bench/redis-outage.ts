/**
 * bench/redis-outage: what requests wait while Redis is away (issue 26 item
 * 4: /api/health and /api/bars took ~2 s each during an outage). One real
 * `breakline serve` per tree (PGlite, `REDIS_URL` on a private Redis from
 * test/helpers/redis-server, no boot replay) is asked /api/health, /api/bars and
 * /api/macro/calendar in turn, one request at a time, while Redis is up, for
 * `--seconds` after it was stopped, and after it was started again. Prints,
 * per tree, phase and path: requests, non-2xx, p50, p99 and max (ms), and the
 * load average as the phase began. The first requests after the stop are the
 * ones the connection's close catches in flight (they wait for ioredis's one
 * retry); after that none should wait on Redis.
 *
 * `--tree name=dir` (repeatable) measures other checkouts in the same run
 * (their node_modules: this tree's, through a symlink), e.g. the tree before
 * a change: `git -C /work/main archive <commit> | tar -x -C /tmp/before`.
 *
 *   bun run bench/redis-outage.ts [--smoke] [--seconds 20] [--tree before=/tmp/before]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { redisServerMissing, startRedisServer } from '../test/helpers/redis-server';
import { printTable, smoke } from './lib';

const ROOT = resolve(import.meta.dir, '..');
const PATHS = ['/api/health', '/api/bars?symbol=AAPL&range=1mo', '/api/macro/calendar'];

const flag = (name: string) => process.argv.flatMap((arg, i) => (arg === name && process.argv[i + 1] ? [process.argv[i + 1]!] : []));
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** `breakline serve` of the tree at `root` on a free loopback port; resolves once it is ready. */
async function serve(root: string, env: Record<string, string>): Promise<{ url: string; stop: () => Promise<void> }> {
  const proc = Bun.spawn([process.execPath, join(root, 'src/index.ts'), 'serve'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', SCAN_INTERVAL_SECONDS: '0', POOL_SIZE: '1', LOG_LEVEL: 'info', RATE_LIMIT_QUOTA: '1000000', ...env },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const stop = async () => {
    proc.kill('SIGTERM');
    if (!(await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]))) proc.kill('SIGKILL');
  };
  const decoder = new TextDecoder();
  let buffered = '';
  // One reader for the pipe's life: the start is read from it, then it is drained (a second `for await` would find the stream locked).
  const stderr = proc.stderr.getReader();
  for (let chunk = await stderr.read(); !chunk.done; chunk = await stderr.read()) {
    buffered += decoder.decode(chunk.value, { stream: true });
    const ready = /"msg":"breakline ready"[^\n]*"url":"([^"]+)"|"url":"([^"]+)"[^\n]*"msg":"breakline ready"/.exec(buffered);
    if (ready) {
      void (async () => {
        while (!(await stderr.read()).done); // keep the pipe drained
      })();
      return { url: ready[1] ?? ready[2]!, stop };
    }
  }
  throw new Error(`bench/redis-outage: ${root} did not start: ${buffered.slice(-2000)}`);
}

/** One request after another to each path, round-robin, for `ms`: the latencies and non-2xx per path. */
async function ask(url: string, ms: number) {
  const figures = PATHS.map(() => ({ latencies: [] as number[], non2xx: 0 }));
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (const [k, path] of PATHS.entries()) {
      const started = performance.now();
      const response = await fetch(`${url}${path}`, { headers: { 'x-forwarded-for': '198.51.100.77' } });
      await response.arrayBuffer();
      figures[k]!.latencies.push(performance.now() - started);
      if (response.status < 200 || response.status > 299) figures[k]!.non2xx++;
    }
    await Bun.sleep(20);
  }
  return figures;
}

export async function benchRedisOutage(): Promise<void> {
  if (redisServerMissing) {
    console.log(`bench/redis-outage skipped: ${redisServerMissing}`);
    return;
  }
  const outageMs = (smoke ? 4 : Number(flag('--seconds')[0] ?? 20)) * 1000;
  const trees: [string, string][] = [...flag('--tree').map((t) => t.split('=') as [string, string]), ['this tree', ROOT]];
  for (const [, root] of trees) if (!existsSync(join(root, 'node_modules'))) symlinkSync(resolve(ROOT, 'node_modules'), join(root, 'node_modules'));
  const rows: Record<string, string | number>[] = [];
  for (const [name, root] of trees) {
    const redis = await startRedisServer();
    const stateDir = mkdtempSync(join(tmpdir(), 'breakline-bench-redis-'));
    // No boot replay: its chunks fill the one worker thread and PGlite's thread for minutes, which is not what is measured here.
    const server = await serve(root, { STATE_DIR: stateDir, REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'bench:', TRUST_PROXY: 'true', REPLAY_ON_BOOT: 'off' });
    try {
      const phases: [string, () => Promise<void>, number][] = [
        ['Redis up', async () => {}, smoke ? 2000 : 5000],
        ['Redis stopped', () => redis.stop(), outageMs],
        ['Redis back (after 2 s)', async () => {
          await redis.start();
          await Bun.sleep(2000);
        }, smoke ? 2000 : 5000],
      ];
      for (const [phase, enter, ms] of phases) {
        await enter();
        const load = loadAverage();
        const figures = await ask(server.url, ms);
        for (const [k, path] of PATHS.entries()) {
          const sorted = [...figures[k]!.latencies].sort((a, b) => a - b);
          rows.push({ tree: name, phase, path: path.split('?')[0]!, load, requests: sorted.length, 'non-2xx': figures[k]!.non2xx, 'p50 ms': round2(quantile(sorted, 0.5)), 'p99 ms': round2(quantile(sorted, 0.99)), 'max ms': round2(sorted.at(-1) ?? 0) });
        }
      }
    } finally {
      await server.stop();
      await redis.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  }
  printTable(`bench/redis-outage — one request at a time per path; Redis stopped for ${outageMs / 1000} s`, rows);
}

if (import.meta.main) await benchRedisOutage();
