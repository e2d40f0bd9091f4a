/**
 * @module cli/capacity/report
 * The tables a capacity run prints for a person (`--json` prints the
 * RunResult instead): one row per step, one per route and step, the
 * resources each target needs with the one that binds, and the model's
 * assumptions. Unknown figures print as `–`.
 */
import { ASSUMPTIONS } from './model';
import type { RunResult } from './run';

/** A plain text table: a header, a rule, the rows (numbers right-aligned). */
export function table(rows: Record<string, string | number | undefined>[]): string {
  if (rows.length === 0) return '';
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: string | number | undefined) => (v === undefined ? '–' : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: (string | number | undefined)[], numeric: boolean[]) => values.map((v, i) => (numeric[i] ? cell(v).padStart(widths[i]!) : cell(v).padEnd(widths[i]!))).join('  ').trimEnd();
  const numeric = columns.map((c) => rows.every((r) => r[c] === undefined || typeof r[c] === 'number'));
  return [line(columns, numeric), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((r) => line(columns.map((c) => r[c]), numeric))].join('\n');
}

const r1 = (x: number | undefined) => (x === undefined ? undefined : Math.round(x * 10) / 10);
const r0 = (x: number | undefined) => (x === undefined ? undefined : Math.round(x));
const pct = (x: number | undefined) => (x === undefined ? undefined : `${Math.round(x * 100)}%`);

export function formatRun(result: RunResult): string {
  const { steps, plan, limits } = result;
  const out: string[] = [];
  out.push(`breakline capacity — ${result.target}, ${result.startedAt}, load average ${result.loadAverage[0]} → ${result.loadAverage[1]} (1 min)`);
  out.push('');
  out.push(
    table(
      steps.map((s) => ({
        step: s.step,
        'req/s offered': r0(s.offeredRps),
        'req/s carried': r0(s.rps),
        'worst p99 ms': s.routes.length ? Math.max(...s.routes.map((r) => r.p99Ms)) : undefined,
        errors: Object.values(s.errors).reduce((a, b) => a + b, 0),
        streams: s.sse.clients,
        'deliv/s': r0(s.sse.deliveriesPerSecond),
        'deliv p99 ms': r1(s.sse.p99Ms),
        CPU: pct(s.cpuCores),
        'loop CPU': pct(s.loopCores),
        pool: pct(s.poolUtilization),
        'RSS MB': r0(s.rssBytes === undefined ? undefined : s.rssBytes / 2 ** 20),
        'lag p99 ms': r1(s.loopLagP99Ms),
        'µs/req': r0(s.cpuUsPerRequest),
        'µs/deliv': r1(s.cpuUsPerDelivery),
      })),
    ),
  );
  const routeRows = steps.flatMap((s) => s.routes.map((r) => ({ step: s.step, route: r.label, 'req/s': r0(r.rps), 'p50 ms': r.p50Ms, 'p99 ms': r.p99Ms, 'p999 ms': r.p999Ms, statuses: Object.entries(r.statuses).map(([k, n]) => `${k}×${n}`).join(' ') || undefined, 'no answer': r.failed || undefined })));
  if (routeRows.length) out.push('', 'Per route:', table(routeRows));
  const errors = steps.filter((s) => Object.keys(s.errors).length);
  if (errors.length) out.push('', 'Errors:', ...errors.map((s) => `  step ${s.step}: ${Object.entries(s.errors).map(([k, n]) => `${k} ×${n}`).join(', ')}`));
  out.push('', `Stopped: ${result.stopped}`);
  out.push(`One instance (${limits.cores ?? '?'} cores, pool ${limits.poolThreads ?? '?'} threads, SSE cap ${limits.sseMaxConnections ?? '?'}): ${r0(plan.perInstance.rps)} req/s with ${plan.perInstance.sse} streams held the p99${plan.perInstance.cpuModelRps === undefined ? '' : `; by its CPU cost, about ${r0(plan.perInstance.cpuModelRps)} req/s`}`);
  if (plan.needs.length) {
    out.push('', 'Instances the target needs, by resource:');
    out.push(table(plan.needs.map((n) => ({ resource: n.resource, instances: n.instances === undefined ? undefined : Number.isFinite(n.instances) ? r1(n.instances) : '∞', basis: n.basis }))));
    out.push('', `Instances: ${plan.instances ?? 'cannot tell'}; binds first: ${plan.binding ?? 'nothing measured binds'}`);
  }
  out.push(`Change first: ${plan.advice}`);
  for (const caveat of plan.caveats) out.push(`Note: ${caveat}`);
  out.push('', 'Model:', ...ASSUMPTIONS.map((a) => `  - ${a}`));
  return out.join('\n');
}
