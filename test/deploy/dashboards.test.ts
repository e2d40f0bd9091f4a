/**
 * deploy/grafana/breakline-dashboard.json and deploy/prometheus/breakline-alerts.yml
 * name only metrics GET /metrics exports: a renamed or dropped metric fails
 * here, not silently on an operator's dashboard. A metric exists when the
 * exposition declares it (`# TYPE name kind`; a histogram's series are
 * name_bucket, name_sum and name_count).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { readFileSync } from 'node:fs';
import { createTestContext, type TestContext } from '../helpers/app';

const root = new URL('../../deploy/', import.meta.url).pathname;
const dashboard = JSON.parse(readFileSync(`${root}grafana/breakline-dashboard.json`, 'utf8')) as { uid: string; panels: { type: string; title: string; targets?: { expr: string }[] }[] };
const rules = Bun.YAML.parse(readFileSync(`${root}prometheus/breakline-alerts.yml`, 'utf8')) as { groups: { name: string; rules: { alert: string; expr: string; labels?: Record<string, string> }[] }[] };

/** The breakline_* names an expression reads. */
const namesIn = (expr: string) => [...expr.matchAll(/\bbreakline_[a-z0-9_]+/g)].map((m) => m[0]);

let ctx: TestContext;
let exported: Set<string>;
beforeAll(async () => {
  ctx = await createTestContext({ env: { SCAN_INTERVAL_SECONDS: '900' } });
  await ctx.request('/api/health');
  await ctx.request('/metrics'); // the first scrape registers the process metrics
  const text = await (await ctx.request('/metrics')).text();
  exported = new Set();
  for (const [, name, kind] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    exported.add(name!);
    if (kind === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exported.add(`${name}${suffix}`);
  }
});
afterAll(() => ctx.close());

describe('the Grafana dashboard and the alert rules', () => {
  it('the dashboard has panels over requests, streams, scans, pool, ledger and health, each with a query', () => {
    const graphs = dashboard.panels.filter((p) => p.type !== 'row');
    expect(graphs.length).toBeGreaterThanOrEqual(12);
    for (const panel of graphs) expect(panel.targets?.length).toBeGreaterThan(0);
    const all = graphs.flatMap((p) => p.targets!.flatMap((t) => namesIn(t.expr)));
    for (const family of ['breakline_http_requests_total', 'breakline_rate_limit_refusals_total', 'breakline_sse_connections', 'breakline_sse_lagging_clients', 'breakline_scan_duration_seconds_bucket', 'breakline_pool_utilization', 'breakline_ledger_checkpoint_lag', 'breakline_health_check']) expect(all).toContain(family);
  });

  it('the rules alert on the database, the bus, the ledger, an overdue scan and event-loop lag', () => {
    const alerts = rules.groups.flatMap((g) => g.rules);
    for (const rule of alerts) expect(rule.alert && rule.expr && rule.labels?.severity).toBeTruthy();
    expect(alerts.map((r) => r.alert)).toEqual(expect.arrayContaining(['BreaklineDatabaseDown', 'BreaklineBusDown', 'BreaklineLedgerVerificationFailed', 'BreaklineScanOverdue', 'BreaklineEventLoopLag']));
  });

  it('every metric they name is in GET /metrics', () => {
    const named = new Set([...dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => namesIn(t.expr))), ...rules.groups.flatMap((g) => g.rules.flatMap((r) => namesIn(r.expr)))]);
    expect(named.size).toBeGreaterThan(15);
    expect([...named].filter((name) => !exported.has(name))).toEqual([]);
  });
});
