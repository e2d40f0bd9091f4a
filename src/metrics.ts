/**
 * @module metrics
 * The Prometheus metrics of one server (prom-client), on a registry of their
 * own (never prom-client's global one: every test context has its own). What
 * happens is counted where it happens (`http`, `scanSeconds`, `rateLimited`);
 * what is a state (worker pool, ledger head, database, health) is read when
 * scraped, through the `sources` the composition root gives `watch`.
 *
 * @example
 * const metrics = new Metrics();
 * metrics.http('GET', '/api/bars', 200, 0.0012);
 * await metrics.text(); // => '# HELP breakline_http_requests_total …'
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** What the metrics read at scrape time. */
export interface MetricSources {
  pool(): { threads: number; queued: number; utilization: number; completed: number };
  /** The ledger's head seq and the seq of its last published checkpoint (lag = records not yet in a checkpoint). */
  ledger(): Promise<{ headSeq: number; checkpointSeq: number }>;
  database(): { kind: string; maxConnections: number; up: boolean | undefined; pingSeconds: number | undefined };
  /** Each background health check: 1 ok/warn, 0.5 degraded, 0 down (absent before the first round). */
  health(): Record<string, string> | undefined;
}

/** A scrape never waits on a slow database longer than this: the last known ledger figures are served. */
const SCRAPE_QUERY_TIMEOUT_MS = 1_000;

const HEALTH_VALUE: Record<string, number> = { ok: 1, warn: 1, degraded: 0.5, down: 0 };

export class Metrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly requests = new Counter({ name: 'breakline_http_requests_total', help: 'HTTP requests answered, by method, route and status', labelNames: ['method', 'route', 'status'] as const, registers: [this.registry] });
  private readonly latency = new Histogram({
    name: 'breakline_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly scans = new Histogram({
    name: 'breakline_scan_duration_seconds',
    help: 'Universe scans (scan, persist, track, resolve outcomes), by timeframe',
    labelNames: ['timeframe'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 80, 160],
    registers: [this.registry],
  });
  private readonly refusals = new Counter({ name: 'breakline_rate_limit_refusals_total', help: 'Requests refused with 429, by quota class', labelNames: ['class'] as const, registers: [this.registry] });
  /** Children of the request metrics by method, status and route (a closed set: routes are patterns or `unmatched`). */
  private readonly httpChildren = new Map<string, { count: { inc(): void }; latency: { observe(value: number): void } }>();
  private lastLedger = { headSeq: 0, checkpointSeq: 0 };
  private watching = false;

  constructor(options: { processMetrics?: boolean } = {}) {
    // Process metrics (RSS, heap, event-loop lag, GC) under the same prefix.
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'breakline_' });
  }

  /** One answered request (the labelled children are looked up once per method, route and status). */
  http(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      const labels = [method, route, String(status)] as const;
      child = { count: this.requests.labels(...labels), latency: this.latency.labels(...labels) };
      this.httpChildren.set(key, child);
    }
    child.count.inc();
    child.latency.observe(seconds);
  }

  scanSeconds(timeframe: string, seconds: number): void {
    this.scans.labels(timeframe).observe(seconds);
  }

  rateLimited(quotaClass: 'general' | 'costly' | 'explain'): void {
    this.refusals.labels(quotaClass).inc();
  }

  /** Registers the gauges read at scrape time (once). */
  watch(sources: MetricSources): void {
    if (this.watching) return;
    this.watching = true;
    const registers = [this.registry];
    new Gauge({ name: 'breakline_pool_threads', help: 'Worker threads the kernel pool may run', registers, collect() { this.set(sources.pool().threads); } });
    new Gauge({ name: 'breakline_pool_queue', help: 'Kernel tasks waiting for a worker thread', registers, collect() { this.set(sources.pool().queued); } });
    new Gauge({ name: 'breakline_pool_utilization', help: 'Share of the pool threads busy since start (piscina utilization, 0–1)', registers, collect() { this.set(sources.pool().utilization); } });
    new Gauge({ name: 'breakline_pool_completed_tasks', help: 'Kernel tasks completed since start', registers, collect() { this.set(sources.pool().completed); } });
    const ledger = async () => {
      const read = sources.ledger().then((figures) => (this.lastLedger = figures));
      await Promise.race([read, Bun.sleep(SCRAPE_QUERY_TIMEOUT_MS)]).catch(() => undefined);
      return this.lastLedger;
    };
    new Gauge({ name: 'breakline_ledger_head_seq', help: 'Sequence number of the ledger head', registers, async collect() { this.set((await ledger()).headSeq); } });
    new Gauge({
      name: 'breakline_ledger_checkpoint_lag',
      help: 'Ledger records after the last published checkpoint',
      registers,
      async collect() {
        const { headSeq, checkpointSeq } = await ledger();
        this.set(Math.max(0, headSeq - checkpointSeq));
      },
    });
    new Gauge({ name: 'breakline_db_pool_max_connections', help: 'Connections the database client may open (1 for the embedded PGlite)', labelNames: ['kind'] as const, registers, collect() { const d = sources.database(); this.labels(d.kind).set(d.maxConnections); } });
    new Gauge({ name: 'breakline_db_up', help: 'Whether the last background health round reached the database (1/0)', registers, collect() { const up = sources.database().up; if (up !== undefined) this.set(up ? 1 : 0); } });
    new Gauge({ name: 'breakline_db_ping_seconds', help: 'Round trip of the last background database check', registers, collect() { const s = sources.database().pingSeconds; if (s !== undefined) this.set(s); } });
    new Gauge({
      name: 'breakline_health_check',
      help: 'Each background health check: 1 ok or warn, 0.5 degraded, 0 down',
      labelNames: ['check'] as const,
      registers,
      collect() {
        for (const [check, status] of Object.entries(sources.health() ?? {})) this.labels(check).set(HEALTH_VALUE[status] ?? 0);
      },
    });
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}
