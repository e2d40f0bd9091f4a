/**
 * Shared pieces of the benchmarks: a wrk runner that parses its summary, and a
 * table printer. Benchmarks print; they never assert on time.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** Requests completed in the run (wrk's `N requests in …`). */
  requests: number;
}

export const smoke = process.argv.includes('--smoke');

/** Starts one SSE client process of the benches (bench/sse-clients.ts) when its JSON config is appended (src/cli/capacity/stream-fleet). */
export const CLIENT_COMMAND: readonly string[] = [process.execPath, new URL('./sse-clients.ts', import.meta.url).pathname];

/** A loopback port free a moment ago (a server bound to port 0 and stopped). */
export async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** CPU seconds (user + system) used so far by a process (`/proc/PID/stat`: every thread) or one thread (`/proc/PID/task/TID/stat`): utime + stime, fields 14 and 15, in clock ticks of 10 ms. */
export function cpuSeconds(statPath: string): number {
  const fields = readFileSync(statPath, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The middle value (the upper one of an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function haveWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

const toMs = (value: string) => {
  const n = parseFloat(value);
  if (value.endsWith('us')) return n / 1000;
  if (value.endsWith('ms')) return n;
  if (value.endsWith('s')) return n * 1000;
  return n;
};

/** Runs wrk against a loopback URL (bounded in time) and parses its latency distribution. */
export async function wrk(url: string, opts: { seconds: number; connections: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const args = ['-t1', `-c${opts.connections}`, `-d${opts.seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`);
  args.push(url);
  const proc = Bun.spawn(['wrk', ...args], { stdout: 'pipe', stderr: 'pipe' });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out)?.[1];
  const p50 = /\s50%\s+([\d.]+\w+)/.exec(out)?.[1];
  const p99 = /\s99%\s+([\d.]+\w+)/.exec(out)?.[1];
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1];
  const requests = /(\d+) requests in/.exec(out)?.[1];
  if (!rps || !p50 || !p99) throw new Error(`could not parse wrk output:\n${out}`);
  return { requestsPerSec: parseFloat(rps), p50Ms: toMs(p50), p99Ms: toMs(p99), non2xx: non2xx ? parseInt(non2xx, 10) : 0, requests: requests ? parseInt(requests, 10) : 0 };
}

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  if (rows.length === 0) return;
  const cols = Object.keys(rows[0]!);
  const cell = (v: string | number) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : v);
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c] ?? '').length)));
  const line = (values: string[]) => '| ' + values.map((v, i) => v.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(line(cols));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows) console.log(line(cols.map((c) => cell(r[c] ?? ''))));
}

/**
 * p50/p95/p99 of sequential in-process requests (`app.handle`, worker pool
 * warm, synthetic market, rate limit out of the way) for each path: 20 warm-up
 * requests, then 1,000 (100 under --smoke).
 */
export async function inProcessLatency(title: string, paths: string[]): Promise<void> {
  const { createApp } = await import('../src/app');
  const { loadConfig } = await import('../src/config');
  const { createLogger } = await import('../src/log');
  const { createServices } = await import('../src/services');
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_QUOTA: '1000000000', POOL_SIZE: '2' });
  const services = await createServices(config, { pgliteDir: ':memory:', log: createLogger('silent'), warmPool: true });
  const app = createApp(services);
  const requests = smoke ? 100 : 1000;
  const rows = [];
  for (const path of paths) {
    for (let k = 0; k < 20; k++) await app.handle(new Request(`http://localhost${path}`));
    const times: number[] = [];
    for (let k = 0; k < requests; k++) {
      const start = Bun.nanoseconds();
      const response = await app.handle(new Request(`http://localhost${path}`));
      await response.arrayBuffer();
      times.push((Bun.nanoseconds() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]! * 1000) / 1000;
    rows.push({ request: path.replace(/^[^?]*\?/, ''), requests, 'p50 ms': q(0.5), 'p95 ms': q(0.95), 'p99 ms': q(0.99) });
  }
  printTable(title, rows);
  await services.close();
}

/**
 * The real daily history of shared/data as one csv directory (symlinks): the
 * 499 S&P 500 / Nasdaq-100 names of daily_yf_dieperdev (2000 .. 2024-03-08)
 * and SPY from daily_marketlab as the benchmark (shared/data/SOURCES.md).
 * Undefined when shared/data is not beside the repository.
 */
export function realCsvDir(): { dir: string; files: number } | undefined {
  const data = process.env.SHARED_DATA_DIR ?? resolve(import.meta.dir, '../../shared/data');
  const stocks = join(data, 'daily_yf_dieperdev');
  const spy = join(data, 'daily_marketlab', 'SPY.csv');
  if (!existsSync(stocks) || !existsSync(spy)) return undefined;
  const dir = join(tmpdir(), 'breakline-bench-real-daily');
  mkdirSync(dir, { recursive: true });
  const files = readdirSync(stocks).filter((f) => /\.csv(\.gz)?$/.test(f));
  for (const f of files) if (!existsSync(join(dir, f))) symlinkSync(join(stocks, f), join(dir, f));
  if (!existsSync(join(dir, 'SPY.csv'))) symlinkSync(spy, join(dir, 'SPY.csv'));
  return { dir, files: files.length };
}

/**
 * `f`'s wall time, this thread's CPU (process.threadCpuUsage) and its longest
 * stretch without a turn of the event loop (a 1 ms timer's lateness; on a
 * busy machine it counts the waits for a core too), and the most CPU the
 * thread spent between two of the timer's turns (what the stretch worked, as
 * bench/loop-stretches counts it), all in ms.
 */
export async function measuredStretch<T>(f: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number; stretchMs: number; stretchCpuMs: number }> {
  const cpuNow = () => {
    const { user, system } = process.threadCpuUsage();
    return (user + system) / 1000;
  };
  let [stretch, stretchCpu] = [0, 0];
  let [last, lastCpu] = [performance.now(), cpuNow()];
  const probe = setInterval(() => {
    const [now, cpu] = [performance.now(), cpuNow()];
    [stretch, stretchCpu] = [Math.max(stretch, now - last), Math.max(stretchCpu, cpu - lastCpu)];
    [last, lastCpu] = [now, cpu];
  }, 1);
  const [t0, c0] = [performance.now(), cpuNow()];
  try {
    const value = await f();
    const [end, cpu] = [performance.now(), cpuNow()];
    return { value, wallMs: end - t0, cpuMs: cpu - c0, stretchMs: Math.max(stretch, end - last), stretchCpuMs: Math.max(stretchCpu, cpu - lastCpu) };
  } finally {
    clearInterval(probe);
  }
}
