/**
 * Operability: the access log (one pino line per request), GET /metrics
 * (Prometheus text: requests and latency per route and status, scans per
 * timeframe, worker pool, ledger head and lag, rate-limit refusals, database),
 * and probes that never spend rate-limit quota.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { createLogger } from '../../src/log';
import { createTestContext, smallSyntheticMarket, type TestContext } from '../helpers/app';

type Line = Record<string, unknown>;

/** Elysia runs after-response hooks (the access log and the request metrics) on the next turn of the event loop. */
const afterResponses = () => new Promise((resolve) => setImmediate(resolve));

/** The value of one sample line `name{labels} value` in Prometheus text, or undefined. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const prefix = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length));
}

describe('access log and metrics', () => {
  let ctx: TestContext;
  const lines: Line[] = [];
  beforeAll(async () => {
    const log = createLogger('info', (line) => lines.push(JSON.parse(line) as Line));
    ctx = await createTestContext({ log, provider: smallSyntheticMarket(), env: { RATE_LIMIT_QUOTA: '3', RATE_LIMIT_WINDOW_SECONDS: '3600' } });
  });
  afterAll(() => ctx.close());

  it('writes one structured line per request: method, route, status, duration, request id', async () => {
    lines.length = 0;
    const ok = await ctx.request('/livez', { headers: { 'x-request-id': 'trace-livez-1' } });
    expect(ok.status).toBe(200);
    const missing = await ctx.request('/nowhere/at/all');
    expect(missing.status).toBe(404);
    await afterResponses();
    const access = lines.filter((l) => l.msg === 'request');
    expect(access).toHaveLength(2);
    expect(access[0]).toMatchObject({ level: 'info', method: 'GET', route: '/livez', status: 200, requestId: 'trace-livez-1' });
    expect(typeof access[0]!.durationMs).toBe('number');
    expect(access[0]!.durationMs as number).toBeGreaterThanOrEqual(0);
    expect(Date.parse(access[0]!.time as string)).not.toBeNaN();
    // An unknown path is one closed label, never the path itself (cardinality).
    expect(access[1]).toMatchObject({ method: 'GET', route: 'unmatched', status: 404, requestId: missing.headers.get('x-request-id') });
  });

  it('counts requests and latency per route and status, and refusals; probes and /metrics never spend quota', async () => {
    // Quota 3 per hour: probes and scrapes, however many, leave it whole.
    for (let i = 0; i < 5; i++) {
      expect((await ctx.request('/readyz')).status).toBeOneOf([200, 503]);
      expect((await ctx.request('/metrics')).status).toBe(200);
      expect((await ctx.request('/api/health')).status).toBeOneOf([200, 503]);
    }
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await ctx.request('/api/bars?symbol=AAPL&range=1mo')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await afterResponses();

    const response = await ctx.request('/metrics');
    expect(response.headers.get('content-type')).toStartWith('text/plain; version=0.0.4');
    const text = await response.text();
    expect(sample(text, 'breakline_http_requests_total', 'method="GET",route="/api/bars",status="200"')).toBe(3);
    expect(sample(text, 'breakline_http_requests_total', 'method="GET",route="/api/bars",status="429"')).toBe(1);
    expect(sample(text, 'breakline_http_request_duration_seconds_count', 'method="GET",route="/api/bars",status="200"')).toBe(3);
    expect(sample(text, 'breakline_http_request_duration_seconds_bucket', 'le="+Inf",method="GET",route="/api/bars",status="200"')).toBe(3);
    expect(sample(text, 'breakline_rate_limit_refusals_total', 'class="general"')).toBe(1);
    expect(sample(text, 'breakline_pool_threads')).toBe(ctx.config.poolSize);
    expect(sample(text, 'breakline_pool_queue')).toBe(0);
    expect(sample(text, 'breakline_db_pool_max_connections', `kind="${ctx.services.database.kind}"`)).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'breakline_process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('times each persisted scan by timeframe and reports the ledger head and its lag behind the last checkpoint', async () => {
    await ctx.services.health.refresh();
    await ctx.services.runs.current('daily');
    const text = await ctx.services.metrics.text();
    expect(sample(text, 'breakline_scan_duration_seconds_count', 'timeframe="daily"')).toBe(1);
    expect(sample(text, 'breakline_scan_duration_seconds_sum', 'timeframe="daily"')).toBeGreaterThan(0);
    const head = await ctx.services.ledger.head();
    expect(head.seq).toBeGreaterThan(0);
    expect(sample(text, 'breakline_ledger_head_seq')).toBe(head.seq);
    expect(sample(text, 'breakline_ledger_checkpoint_lag')).toBe(0); // every run ends with a checkpoint
    expect(sample(text, 'breakline_db_up')).toBe(1);
    expect(sample(text, 'breakline_health_check', 'check="pool"')).toBe(1);
    expect(sample(text, 'breakline_pool_completed_tasks')).toBeGreaterThan(0);
  });
});

describe('log level from config', () => {
  it('drops lines below the level and keeps the fields of those above', () => {
    const lines: Line[] = [];
    const log = createLogger('warn', (line) => lines.push(JSON.parse(line) as Line));
    log.info('request', { status: 200 });
    log.warn('store failed', { store: 'redis' });
    expect(log.enabled('info')).toBe(false);
    expect(lines).toEqual([{ level: 'warn', time: expect.any(String), msg: 'store failed', store: 'redis' }]);
  });
});
