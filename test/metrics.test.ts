/**
 * The request metrics are tallied in plain numbers (src/metrics.ts), not by
 * prom-client's labelled children: their exposition must be the very text
 * prom-client's own Counter and Histogram give for the same observations,
 * scraped more than once (the counter is told only what is new).
 */
import { describe, expect, it, spyOn } from 'bun:test';
import v8 from 'node:v8';
import { Counter, Histogram, Registry } from 'prom-client';
import { Metrics } from '../src/metrics';

const REQUESTS = 'breakline_http_requests_total';
const LATENCY = 'breakline_http_request_duration_seconds';
/** Lines of one label set of the histogram: 14 bounds and +Inf, sum, count. */
const HISTOGRAM_LINES = 17;

/** prom-client's own metrics of the same names, labels and buckets, observed the ordinary way. */
function reference() {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: REQUESTS, help: 'HTTP requests answered, by method, route and status', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: LATENCY,
    help: 'Time from a request arriving to its answer, by method, route and status',
    labelNames,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    registry,
    http(method: string, route: string, status: number, seconds: number) {
      requests.labels(method, route, String(status)).inc();
      latency.labels(method, route, String(status)).observe(seconds);
    },
  };
}

/** The lines of one metric family (HELP, TYPE and samples) in a text exposition. */
const family = (text: string, name: string) => text.split('\n').filter((line) => line.startsWith(name) || line.includes(` ${name} `));

describe('request metrics', () => {
  it('expose exactly what prom-client exposes for the same observations, scrape after scrape', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const ref = reference();
    // Bounds themselves (le is inclusive), between them, above the last, zero, and labels that need escaping.
    const seconds = [0, 0.0005, 0.0007, 0.001, 0.003, 0.05, 0.2, 1, 4.9, 10, 11, 42];
    const labelled: [string, string, number][] = [['GET', '/api/bars', 200], ['GET', '/api/bars', 429], ['POST', '/api/"q"\\x', 400], ['GET', 'unmatched', 404]];
    for (const round of [1, 2]) {
      labelled.forEach(([method, route, status], i) => {
        for (const s of seconds.slice(0, seconds.length - i * round)) {
          metrics.http(method, route, status, s);
          ref.http(method, route, status, s);
        }
      });
      // The fast path's way: a tally kept by the caller.
      const tally = metrics.tally('GET', '/api/snapshot', 200);
      for (const s of seconds) {
        tally.observe(s);
        ref.http('GET', '/api/snapshot', 200, s);
      }
      const [ours, theirs] = [await metrics.text(), await ref.registry.metrics()];
      for (const name of [REQUESTS, LATENCY]) {
        const expected = family(theirs, name);
        expect(expected.length).toBe(2 + 5 * (name === REQUESTS ? 1 : HISTOGRAM_LINES)); // HELP, TYPE, then 5 label sets
        expect(family(ours, name)).toEqual(expected);
      }
      expect(ours).toContain(`${REQUESTS}{method="GET",route="/api/snapshot",status="200"} ${seconds.length * round}`);
    }
  });
});

describe('process metrics (prom-client default metrics)', () => {
  const PROCESS = ['breakline_process_cpu_user_seconds_total', 'breakline_process_start_time_seconds', 'breakline_nodejs_heap_size_total_bytes', 'breakline_nodejs_eventloop_lag_seconds'];

  it('are not registered when the metrics are made, and the first scrape serves them (once, however many ask at once)', async () => {
    const metrics = new Metrics();
    for (const name of PROCESS) expect(metrics.registry.getSingleMetric(name)).toBeUndefined();
    const [first, second] = await Promise.all([metrics.text(), metrics.text()]);
    for (const text of [first, second]) for (const name of PROCESS) expect(text).toContain(`# TYPE ${name} `);
    await metrics.startProcessMetrics();
    expect(family(await metrics.text(), 'breakline_process_cpu_user_seconds_total').filter((line) => !line.startsWith('#'))).toHaveLength(1);
    // Turned off, they never come.
    const off = new Metrics({ processMetrics: false });
    await off.startProcessMetrics();
    expect(await off.text()).not.toContain('breakline_process_');
  });

  it('are off the boot path: the app and the composition root load neither prom-client’s entry module nor its default metrics', () => {
    const script = `await Promise.all([import('./src/app.ts'), import('./src/services.ts')]);
      console.log(JSON.stringify(Object.keys(require.cache).filter((k) => k.includes('/prom-client/')).map((k) => k.slice(k.lastIndexOf('/prom-client/') + 13))));`;
    const run = Bun.spawnSync([process.execPath, '-e', script], { cwd: `${import.meta.dir}/..`, stderr: 'pipe' });
    expect(run.stderr.toString()).toBe('');
    const loaded = JSON.parse(run.stdout.toString()) as string[];
    expect(loaded).toContain('lib/registry.js');
    expect(loaded).not.toContain('index.js');
    expect(loaded.filter((file) => file.includes('defaultMetrics') || file.startsWith('lib/metrics/'))).toEqual([]);
  });

  it('never ask for the heap spaces, which Bun answers by walking the whole heap on the main thread; the heap’s size and use stay', async () => {
    const walks = spyOn(v8, 'getHeapSpaceStatistics');
    try {
      const metrics = new Metrics();
      await metrics.startProcessMetrics();
      const text = await metrics.text();
      expect(text).not.toContain('breakline_nodejs_heap_space_size_');
      expect(family(text, 'breakline_nodejs_heap_size_used_bytes').filter((line) => !line.startsWith('#'))).toHaveLength(1);
      expect(walks).not.toHaveBeenCalled();
    } finally {
      walks.mockRestore();
    }
  });
});
