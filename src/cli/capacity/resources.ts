/**
 * @module cli/capacity/resources
 * What the server spends, read before and after each window of a run: CPU
 * (every thread, and the main thread — the event loop — alone), RSS, the
 * event loop's lag, the worker pool's busy share and queue, the database's
 * round trip and the streams it holds.
 *
 * A local server (one this command started, or `--pid`) is read from
 * /proc/<pid> (proc(5): each thread's `task/<tid>/schedstat` time on a CPU
 * in ns, else `stat` fields 14–15 utime and stime in clock ticks;
 * `task/<pid>/…` the main thread alone; `status` VmRSS); every
 * server is also read from its `/metrics` (the Prometheus text format:
 * prom-client's process metrics under the `breakline_` prefix and the
 * service's own gauges), which is all there is of a remote one.
 *
 * The event-loop lag percentiles of prom-client are reset at each scrape
 * (its `eventLoopLag` collector), so the figure read at the end of a window
 * covers the window only when nothing else scraped meanwhile (a Prometheus
 * scraping the same instance shortens it).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc times are in ticks of 1/100 s on every architecture Bun ships for (sysconf(_SC_CLK_TCK)). */
const TICKS_PER_SECOND = 100;

/** One reading of a server. Undefined fields are not known for this server. */
export interface ResourceSample {
  /** performance.now() of the reading, ms. */
  at: number;
  /** CPU seconds since the process started: every thread. */
  cpuSeconds?: number;
  /** CPU seconds of the main thread (the event loop) alone (local servers only). */
  loopCpuSeconds?: number;
  rssBytes?: number;
  /** p99 of the event loop's delay since the last scrape, seconds. */
  loopLagP99?: number;
  /** The pool's busy thread-seconds since it started: utilization × uptime × threads (piscina's since-start utilization). */
  poolBusySeconds?: number;
  poolThreads?: number;
  poolQueue?: number;
  dbPingSeconds?: number;
  dbPoolMax?: number;
  sseConnections?: number;
  sseMaxConnections?: number;
  sseDropped?: number;
  sseDeliveries?: number;
  sseLagging?: number;
}

/** Samples of the metric families of a Prometheus text exposition, each `name{labels}` → value. */
export function parseMetrics(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    const value = Number(line.slice(space + 1));
    if (space > 0 && !Number.isNaN(value)) out.set(line.slice(0, space), value);
  }
  return out;
}

/** The sum of a family's samples (every label set), or undefined when it has none. */
export function metricSum(metrics: Map<string, number>, name: string): number | undefined {
  let sum: number | undefined;
  for (const [key, value] of metrics) if (key === name || key.startsWith(`${name}{`)) sum = (sum ?? 0) + value;
  return sum;
}

/** CPU seconds (user + system) in a /proc `stat` line: fields 14 and 15, counted after the `)` that ends the command name. */
export function statCpuSeconds(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** A thread's time on a CPU in seconds from its /proc `schedstat` (first field, nanoseconds), or undefined without schedstats. */
export function schedstatSeconds(text: string): number | undefined {
  const ns = Number(text.split(' ')[0]);
  return Number.isFinite(ns) && text.trim() !== '' ? ns / 1e9 : undefined;
}

/**
 * Each process's threads as last read (thread id → seconds on a CPU): a thread
 * that has ended keeps the time it was last read with, so a process's sum
 * never runs backwards (the pool's idle threads end after their idle timeout,
 * the test runner's come and go); only what an ended thread did after its
 * last reading is missed.
 */
const threadsSeen = new Map<number, Map<string, number>>();

/** Nanosecond CPU time of the process's threads (`task/<tid>/schedstat`), ended ones included as last read; undefined where the kernel keeps no schedstats. */
function threadsCpuSeconds(pid: number): number | undefined {
  const threads = threadsSeen.get(pid) ?? new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8');
    } catch {
      continue; // ended between the listing and the read: its last reading stands
    }
    const seconds = schedstatSeconds(text);
    if (seconds === undefined) return undefined;
    threads.set(tid, seconds);
  }
  threadsSeen.set(pid, threads);
  let sum = 0;
  for (const seconds of threads.values()) sum += seconds;
  return sum;
}

/**
 * The process's CPU (all threads and the main thread) and RSS from /proc.
 * CPU comes from the threads' `schedstat` (nanoseconds) where the kernel has
 * it — `stat`'s ticks of 10 ms are too coarse for a window of a tenth of a
 * CPU-second — and from `stat` otherwise. A thread that ended between two
 * readings counts with its last reading (threadsCpuSeconds), so the figure
 * never runs backwards.
 */
export function readProc(pid: number): Pick<ResourceSample, 'cpuSeconds' | 'loopCpuSeconds' | 'rssBytes'> {
  const precise = threadsCpuSeconds(pid);
  const main = precise === undefined ? undefined : schedstatSeconds(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8'));
  const cpuSeconds = precise ?? statCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  const loopCpuSeconds = main ?? statCpuSeconds(readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8'));
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return { cpuSeconds, loopCpuSeconds, rssBytes: Number.isFinite(kb) ? kb * 1024 : undefined };
}

/** What `/metrics` says (bounded in time; nothing when it cannot be read). */
export function fromMetrics(metrics: Map<string, number>, nowSeconds = Date.now() / 1000): Omit<ResourceSample, 'at'> {
  const get = (name: string) => metricSum(metrics, name);
  const utilization = get('breakline_pool_utilization');
  const threads = get('breakline_pool_threads');
  const started = get('breakline_process_start_time_seconds');
  return {
    cpuSeconds: get('breakline_process_cpu_seconds_total'),
    rssBytes: get('breakline_process_resident_memory_bytes'),
    loopLagP99: get('breakline_nodejs_eventloop_lag_p99_seconds'),
    // The pool starts with the process (within its boot): uptime stands in for the pool's age.
    poolBusySeconds: utilization !== undefined && threads !== undefined && started !== undefined ? utilization * (nowSeconds - started) * threads : undefined,
    poolThreads: threads,
    poolQueue: get('breakline_pool_queue'),
    dbPingSeconds: get('breakline_db_ping_seconds'),
    dbPoolMax: get('breakline_db_pool_max_connections'),
    sseConnections: get('breakline_sse_connections'),
    sseMaxConnections: get('breakline_sse_max_connections'),
    sseDropped: get('breakline_sse_dropped_total'),
    sseDeliveries: get('breakline_sse_deliveries_total'),
    sseLagging: get('breakline_sse_lagging_clients'),
  };
}

export class ResourceReader {
  constructor(
    private readonly base: string,
    /** The server's process id when it runs on this machine and may be read (/proc). */
    private readonly pid: number | undefined,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** One reading: /metrics, and /proc where the process is ours to read (its CPU and RSS then come from /proc). */
  async sample(): Promise<ResourceSample> {
    const text = await fetch(`${this.base}/metrics`, { headers: this.headers, signal: AbortSignal.timeout(5_000) })
      .then((r) => (r.ok ? r.text() : ''))
      .catch(() => '');
    const at = performance.now();
    const scraped = fromMetrics(parseMetrics(text));
    return this.pid === undefined ? { at, ...scraped } : { at, ...scraped, ...readProc(this.pid) };
  }
}

/** Differences between two readings over their interval. */
export interface ResourceUse {
  seconds: number;
  /** Cores busy on average (CPU seconds ÷ seconds). */
  cpuCores?: number;
  loopCores?: number;
  /** CPU seconds spent. */
  cpuSeconds?: number;
  loopCpuSeconds?: number;
  poolUtilization?: number;
  /** Pool thread-seconds busy. */
  poolBusySeconds?: number;
  rssBytes?: number;
  loopLagP99?: number;
  poolQueue?: number;
  dbPingSeconds?: number;
  sseDeliveries?: number;
  sseDropped?: number;
  sseLagging?: number;
}

export function use(before: ResourceSample, after: ResourceSample): ResourceUse {
  const seconds = (after.at - before.at) / 1000;
  const delta = (a?: number, b?: number) => (a !== undefined && b !== undefined ? b - a : undefined);
  const cpuSeconds = delta(before.cpuSeconds, after.cpuSeconds);
  const loopCpuSeconds = delta(before.loopCpuSeconds, after.loopCpuSeconds);
  const busy = delta(before.poolBusySeconds, after.poolBusySeconds);
  return {
    seconds,
    cpuSeconds,
    loopCpuSeconds,
    cpuCores: cpuSeconds === undefined ? undefined : cpuSeconds / seconds,
    loopCores: loopCpuSeconds === undefined ? undefined : loopCpuSeconds / seconds,
    poolUtilization: busy === undefined || !after.poolThreads ? undefined : Math.max(0, Math.min(1, busy / (seconds * after.poolThreads))),
    poolBusySeconds: busy,
    rssBytes: after.rssBytes,
    loopLagP99: after.loopLagP99,
    poolQueue: after.poolQueue,
    dbPingSeconds: after.dbPingSeconds,
    sseDeliveries: delta(before.sseDeliveries, after.sseDeliveries),
    sseDropped: delta(before.sseDropped, after.sseDropped),
    sseLagging: after.sseLagging,
  };
}
