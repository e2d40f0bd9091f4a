/**
 * @module metrics
 * The Prometheus metrics of one server (prom-client), on a registry of their
 * own (never prom-client's global one: every test context has its own). What
 * happens is counted where it happens (`http`, `scanSeconds`, `rateLimited`);
 * what is a state (worker pool, ledger head, database, health) is read when
 * scraped, through the `sources` the composition root gives `watch`.
 *
 * prom-client's entry module loads everything it has (default metrics, push
 * gateway, cluster aggregation): about 60 ms of wall time at boot (35 ms CPU;
 * bench/metrics). The metric classes are imported from their own modules
 * (about 8 ms), and the process metrics (prom-client's default metrics: RSS,
 * heap, event-loop lag, GC) are loaded and registered after readiness
 * (`startProcessMetrics`, services.warm) or by the first scrape, whichever
 * comes first: the first scrape always serves them.
 *
 * @example
 * const metrics = new Metrics();
 * metrics.http('GET', '/api/bars', 200, 0.0012);
 * metrics.tally('GET', '/api/bars', 200).observe(0.0012); // the same, for a caller that keeps the tally
 * await metrics.text(); // => '# HELP breakline_http_requests_total …'
 */
import Counter from 'prom-client/lib/counter';
import Gauge from 'prom-client/lib/gauge';
import Histogram from 'prom-client/lib/histogram';
import Registry from 'prom-client/lib/registry';

/** What the metrics read at scrape time. */
export interface MetricSources {
  pool(): { threads: number; queued: number; utilization: number; completed: number };
  /** The ledger's head seq and the seq of its last published checkpoint (lag = records not yet in a checkpoint). */
  ledger(): Promise<{ headSeq: number; checkpointSeq: number }>;
  database(): { kind: string; maxConnections: number; up: boolean | undefined; pingSeconds: number | undefined };
  /** Each background health check: 1 ok/warn, 0.5 degraded, 0 down (absent before the first round). */
  health(): Record<string, string> | undefined;
  /** The realtime event bus, read live (stream/bus `BusHealth`); absent in contexts without one. */
  bus?(): { head: number; relayLag: number; transportUp: boolean; gaps: number };
  /** The realtime streams this instance holds (stream/hub `stats`) and its cap (SSE_MAX_CONNECTIONS). */
  stream?(): { connections: number; maxConnections: number; lagging: number; dropped: number; delivered: number };
  /** When the latest persisted scan run of each timeframe finished (any instance's: the database says), epoch ms. */
  lastScans?(): Promise<Record<string, number | undefined>>;
  /** Seconds between scheduled scans (SCAN_INTERVAL_SECONDS; 0: none). */
  scanIntervalSeconds?: number;
  /** Whether the live ledger's chain holds (ledger/verify's LedgerVerifier: its report reused while the head is unchanged). */
  ledgerVerified?(): Promise<boolean>;
}

/** A scrape never waits on a slow database longer than this: the last known ledger figures are served. */
const SCRAPE_QUERY_TIMEOUT_MS = 1_000;

/** Upper bounds of the request-duration buckets (seconds). */
const HTTP_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type HttpLabel = 'method' | 'route' | 'status';

/** One method, route and status's requests so far: their count, summed seconds and per-bucket counts (the last is above every bound). */
class RequestTally {
  count = 0;
  sum = 0;
  /** The count prom-client's counter has been told of (it is told the rest when scraped). */
  reported = 0;
  readonly buckets = new Float64Array(HTTP_BUCKETS.length + 1);
  constructor(readonly labels: Readonly<Record<HttpLabel, string>>) {}

  observe(seconds: number): void {
    let b = 0;
    while (b < HTTP_BUCKETS.length && seconds > HTTP_BUCKETS[b]!) b++;
    this.buckets[b]!++;
    this.count++;
    this.sum += seconds;
  }
}

/**
 * The request-duration histogram read from the tallies when scraped.
 * prom-client's own labelled children convert, check and hash their labels on
 * every observation (microseconds each, on every request); a request here adds
 * to plain numbers, and the exposition is prom-client's histogram format:
 * cumulative `_bucket` series with `le` first, then `_sum` and `_count`.
 */
class TalliedHistogram extends Histogram<HttpLabel> {
  constructor(
    private readonly tallies: () => Iterable<RequestTally>,
    private readonly configuration: { name: string; help: string; registers: Registry[] },
  ) {
    super({ ...configuration, labelNames: ['method', 'route', 'status'], buckets: HTTP_BUCKETS });
  }

  /**
   * What prom-client's registry reads to write the text exposition (the base
   * class's `get()` reads it too, merging `sharedLabels` into `labels`): the
   * values in the shape prom-client's own histogram gives them.
   */
  async getForPromString() {
    const values: { labels: { le?: number | string }; sharedLabels: Readonly<Record<HttpLabel, string>>; value: number; metricName: string }[] = [];
    for (const tally of this.tallies()) {
      const sharedLabels = tally.labels;
      let cumulative = 0;
      HTTP_BUCKETS.forEach((le, b) => {
        cumulative += tally.buckets[b]!;
        values.push({ labels: { le }, sharedLabels, value: cumulative, metricName: `${this.configuration.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf' }, sharedLabels, value: tally.count, metricName: `${this.configuration.name}_bucket` });
      values.push({ labels: {}, sharedLabels, value: tally.sum, metricName: `${this.configuration.name}_sum` });
      values.push({ labels: {}, sharedLabels, value: tally.count, metricName: `${this.configuration.name}_count` });
    }
    return { name: this.configuration.name, help: this.configuration.help, type: 'histogram', values, aggregator: 'sum' };
  }
}

const HEALTH_VALUE: Record<string, number> = { ok: 1, warn: 1, degraded: 0.5, down: 0 };

/** What `work` answers within the scrape's bound, else undefined (it goes on; a later scrape reads it). */
async function withinScrape<T>(work: Promise<T>): Promise<T | undefined> {
  work.catch(() => {}); // a failure after the bound is nobody's to report: the last known figure stays
  return Promise.race([work, Bun.sleep(SCRAPE_QUERY_TIMEOUT_MS).then(() => undefined)]).catch(() => undefined);
}

export class Metrics {
  readonly registry = new Registry();
  /** Reads of slow sources (the database) a scrape awaits before the registry collects. */
  private readonly refreshers: (() => Promise<void>)[] = [];
  readonly contentType = this.registry.contentType;
  /** Requests by method, route and status (a closed set: routes are patterns or `unmatched`), tallied in plain numbers. */
  private readonly tallies = new Map<string, RequestTally>();
  private readonly requests = new Counter({
    name: 'breakline_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
    // The tallies' counts since the last scrape, told to the counter when scraped.
    collect: () => {
      for (const tally of this.tallies.values()) {
        if (tally.count > tally.reported) this.requests.inc(tally.labels, tally.count - tally.reported);
        tally.reported = tally.count;
      }
    },
  });
  private readonly scans = new Histogram({
    name: 'breakline_scan_duration_seconds',
    help: 'Universe scans (scan, persist, track, resolve outcomes), by timeframe',
    labelNames: ['timeframe'] as const,
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 80, 160],
    registers: [this.registry],
  });
  private readonly refusals = new Counter({ name: 'breakline_rate_limit_refusals_total', help: 'Requests refused with 429, by quota class', labelNames: ['class'] as const, registers: [this.registry] });
  private readonly strays = new Counter({
    name: 'breakline_unhandled_errors_total',
    help: 'Errors nothing caught (a rejection nobody awaited, an exception thrown from a callback), logged and survived; each is a bug to fix where it happens',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  private lastLedger = { headSeq: 0, checkpointSeq: 0 };
  private watching = false;
  /** The process metrics registered (or being), once asked for; undefined while not yet. */
  private processMetrics: Promise<void> | undefined;

  constructor(private readonly options: { processMetrics?: boolean } = {}) {
    new TalliedHistogram(() => this.tallies.values(), {
      name: 'breakline_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer, by method, route and status',
      registers: [this.registry],
    });
  }

  /** One answered request (its tally is looked up once per method, route and status, then only added to). */
  http(method: string, route: string, status: number, seconds: number): void {
    this.tally(method, route, status).observe(seconds);
  }

  /** The requests of one method, route and status, to add to directly (the fast path keeps its own by status). */
  tally(method: string, route: string, status: number): { observe(seconds: number): void } {
    const key = `${method} ${status} ${route}`;
    let tally = this.tallies.get(key);
    if (!tally) this.tallies.set(key, (tally = new RequestTally({ method, route, status: String(status) })));
    return tally;
  }

  scanSeconds(timeframe: string, seconds: number): void {
    this.scans.labels(timeframe).observe(seconds);
  }

  /** An error that reached the process's last-resort handlers (cli/last-resort). */
  unhandled(kind: 'rejection' | 'exception'): void {
    this.strays.labels(kind).inc();
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
    const { bus } = sources;
    if (bus) {
      new Gauge({ name: 'breakline_bus_position', help: 'Last event-log position the event bus delivered on this instance (-1 before it opened)', registers, collect() { this.set(bus().head); } });
      new Gauge({ name: 'breakline_bus_transport_up', help: 'Whether Redis carries events now (1/0; always 1 without REDIS_URL)', registers, collect() { this.set(bus().transportUp ? 1 : 0); } });
      new Gauge({ name: 'breakline_bus_relay_lag', help: 'Events delivered here not yet known to be in the Redis stream (relayed when Redis answers)', registers, collect() { this.set(bus().relayLag); } });
      new Gauge({ name: 'breakline_bus_gaps', help: 'Gaps the event bus gave up since start (each a reset to this instance\'s streams)', registers, collect() { this.set(bus().gaps); } });
    }
    this.watchStreams(sources);
    this.watchJobs(sources);
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

  /** The realtime streams: held, behind, dropped, delivered (read from the hub when scraped). */
  private watchStreams({ stream }: MetricSources): void {
    if (!stream) return;
    const registers = [this.registry];
    new Gauge({ name: 'breakline_sse_connections', help: 'Event streams (GET /api/stream) open on this instance', registers, collect() { this.set(stream().connections); } });
    new Gauge({ name: 'breakline_sse_max_connections', help: 'Event streams this instance admits at most (SSE_MAX_CONNECTIONS)', registers, collect() { this.set(stream().maxConnections); } });
    new Gauge({ name: 'breakline_sse_lagging_clients', help: 'Streams with events waiting for them in the replay buffer (their socket takes less than is sent)', registers, collect() { this.set(stream().lagging); } });
    new Counter({ name: 'breakline_sse_dropped_total', help: 'Streams dropped for not reading (behind the whole replay buffer, or stalled)', registers, collect() { this.reset(); this.inc(stream().dropped); } });
    new Counter({ name: 'breakline_sse_deliveries_total', help: 'Events handed to stream clients (each event once per client that receives it; pings not counted)', registers, collect() { this.reset(); this.inc(stream().delivered); } });
  }

  /** Scheduled work that must keep happening: the latest scan run of each timeframe, the ledger's verification. */
  private watchJobs({ lastScans, scanIntervalSeconds, ledgerVerified }: MetricSources): void {
    const registers = [this.registry];
    if (scanIntervalSeconds !== undefined) new Gauge({ name: 'breakline_scan_interval_seconds', help: 'Seconds between scheduled scans (SCAN_INTERVAL_SECONDS; 0: no scheduler)', registers, collect() { this.set(scanIntervalSeconds); } });
    if (lastScans) {
      let last: Record<string, number | undefined> = {};
      this.refreshers.push(async () => void (last = (await withinScrape(lastScans())) ?? last));
      new Gauge({
        name: 'breakline_scan_last_run_timestamp_seconds',
        help: 'When the latest persisted scan run of each timeframe finished (any instance of the cluster), Unix seconds',
        labelNames: ['timeframe'] as const,
        registers,
        collect() {
          for (const [timeframe, ms] of Object.entries(last)) if (ms !== undefined) this.labels(timeframe).set(ms / 1000);
        },
      });
    }
    if (ledgerVerified) {
      let held: boolean | undefined;
      this.refreshers.push(async () => void (held = (await withinScrape(ledgerVerified())) ?? held));
      new Gauge({
        name: 'breakline_ledger_verified',
        help: 'Whether the live ledger hash chain held at its last verification (1/0; verified when scraped, reusing the report while the head is unchanged)',
        registers,
        collect() {
          if (held !== undefined) this.set(held ? 1 : 0);
        },
      });
    }
  }

  /**
   * Loads and registers the process metrics (RSS, heap, event-loop lag, GC;
   * prom-client's default metrics) under the same prefix, once: off the boot
   * path (after readiness, or by the first scrape). Their counts (GC) and the
   * event-loop lag histogram start from here.
   */
  startProcessMetrics(): Promise<void> {
    if (this.options.processMetrics === false) return Promise.resolve();
    return (this.processMetrics ??= processMetrics().then((metrics) => {
      for (const register of metrics) register(this.registry, { prefix: 'breakline_', eventLoopMonitoringPrecision: 10 });
    }));
  }

  /** The Prometheus text exposition of every metric (the first registers the process metrics if readiness has not yet). */
  async text(): Promise<string> {
    await this.startProcessMetrics();
    // The slow sources are read first, so the registry then reads every counter in one turn (a request answered
    // meanwhile lands wholly before or after this scrape, never between two of its families).
    await Promise.all(this.refreshers.map((refresh) => refresh()));
    return this.registry.metrics();
  }
}

/**
 * prom-client's default metrics (its lib/defaultMetrics list, in its order,
 * with the configuration it gives them), each module named so the executable
 * bundles it — all but the heap spaces' (`nodejs_heap_space_size_*`): Bun
 * answers `v8.getHeapSpaceStatistics()` by walking the whole JavaScript heap,
 * on the main thread, once when that metric registers and again at every
 * scrape (~150–300 ms with a million live objects, as the server holds during
 * a boot replay: issue 27). The heap's size and use stay
 * (`nodejs_heap_size_*_bytes`, from `process.memoryUsage()`, microseconds).
 */
function processMetrics(): Promise<((registry: Registry, config: { prefix: string; eventLoopMonitoringPrecision: number }) => void)[]> {
  return Promise.all([
    import('prom-client/lib/metrics/processCpuTotal'),
    import('prom-client/lib/metrics/processStartTime'),
    import('prom-client/lib/metrics/osMemoryHeap'),
    import('prom-client/lib/metrics/processOpenFileDescriptors'),
    import('prom-client/lib/metrics/processMaxFileDescriptors'),
    import('prom-client/lib/metrics/eventLoopLag'),
    import('prom-client/lib/metrics/processResources'),
    import('prom-client/lib/metrics/processHandles'),
    import('prom-client/lib/metrics/processRequests'),
    import('prom-client/lib/metrics/heapSizeAndUsed'),
    import('prom-client/lib/metrics/version'),
    import('prom-client/lib/metrics/gc'),
  ]).then((modules) => modules.map((m) => m.default));
}
