/**
 * bench/cluster — the cluster suite's scenarios (test/cluster, issue 26) run
 * once on one cluster of three instances behind HAProxy, on a private
 * PostgreSQL 15 and Redis, printed as docs/operations.md's table: per scenario the
 * unexpected exits, the requests through the balancer that failed (and how
 * many HAProxy retried on another server, which the client never saw), the
 * slowest recovery (fault end → /readyz 200), stream events lost or
 * delivered twice or from the other deployment, acknowledged writes lost,
 * and admissions against the quota.
 *
 * Run by hand: `bun run bench/cluster.ts` (or `npm run bench -- cluster`);
 * `CLUSTER_SUITE=ci` runs CI's scenarios (test/helpers/cluster/profile);
 * `--scenario <words>` runs the fresh start and the scenarios whose name
 * holds the words. Needs PostgreSQL 15 (/usr/lib/postgresql/15/bin),
 * redis-server and HAProxy (/usr/sbin/haproxy): skipped, saying so, without.
 * `CLUSTER_LOGS=<dir>` keeps every instance's log lines there, and the
 * outcomes as outcomes.json.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Cluster } from '../test/helpers/cluster/cluster';
import { runScenario, type Outcome } from '../test/helpers/cluster/run';
import { suiteScenarios } from '../test/helpers/cluster/scenarios';
import { printTable } from './lib';

/** The value after `--scenario`, if given. */
function scenarioFilter(): string | undefined {
  const at = process.argv.indexOf('--scenario');
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function missingTools(): string[] {
  const needed = { PostgreSQL: '/usr/lib/postgresql/15/bin/initdb', HAProxy: process.env.HAPROXY_BIN ?? '/usr/sbin/haproxy' };
  const missing = Object.entries(needed).filter(([, path]) => !existsSync(path)).map(([name]) => name);
  if (!Bun.which('redis-server')) missing.push('redis-server');
  return missing;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** One row of the table. */
export function outcomeRow(o: Outcome): Record<string, string | number> {
  const recoveries = o.recovery.map((r) => r.seconds);
  const slowest = recoveries.includes(null) ? 'never' : Math.max(...(recoveries as number[]));
  return {
    scenario: o.scenario,
    'unexpected exits': o.unexpectedExits.length,
    'failed requests': `${o.requests.failed} of ${o.requests.total}`,
    'HAProxy retried / redispatched': `${o.requests.retried} / ${o.requests.redispatched}`,
    'recovery s': slowest,
    'events lost': `${sum(o.streams.map((s) => s.lost))} of ${sum(o.streams.map((s) => s.expected))}`,
    'duplicates / other deployment\'s': `${sum(o.streams.map((s) => s.duplicates))} / ${sum(o.streams.map((s) => s.foreign))}`,
    'writes lost': `${o.writes.lost.length} of ${o.writes.acknowledged}`,
    'admitted / quota': o.admissions.map((a) => `${a.admitted}/${a.quota}`).join(', '),
  };
}

export async function benchCluster(): Promise<void> {
  const missing = missingTools();
  if (missing.length > 0) {
    console.log(`\nbench/cluster — skipped: needs ${missing.join(', ')}`);
    return;
  }
  const filter = scenarioFilter();
  const load = loadavg()[0]!.toFixed(1);
  const cluster = await Cluster.create();
  const outcomes: Outcome[] = [];
  try {
    for (const scenario of suiteScenarios()) {
      if (filter && !scenario.freshStart && !scenario.name.includes(filter)) continue;
      outcomes.push(await runScenario(cluster, scenario));
    }
  } finally {
    await cluster.destroy();
  }
  if (process.env.CLUSTER_LOGS) await Bun.write(join(process.env.CLUSTER_LOGS, 'outcomes.json'), JSON.stringify(outcomes, null, 1));
  printTable(`bench/cluster — 3 instances behind HAProxy, PostgreSQL 15 and Redis of its own; 1-min load ${load} → ${loadavg()[0]!.toFixed(1)}`, outcomes.map(outcomeRow));
  console.log(`admitted / quota: ${outcomes[0]?.admissions.map((a) => a.client).join(', ')} (and, with deployment B: ${['B anonymous (same address)', 'B free user (same id)'].join(', ')})`);
  for (const o of outcomes) {
    if (o.requests.noServerSeconds > 0) console.log(`${o.scenario}: the balancer had no server up for ${o.requests.noServerSeconds} s`);
    for (const s of o.streams.filter((x) => x.lost + x.duplicates > 0)) console.log(`${o.scenario}: ${s.subscriber} lost ${s.lost} of ${s.expected}, duplicates ${s.duplicates}: ${s.examples.join('; ')}`);
    if (sum(o.streams.map((s) => s.excusedByReset))) console.log(`${o.scenario}: ${sum(o.streams.map((s) => s.excusedByReset))} events missed with a reset after them`);
    for (const exit of o.unexpectedExits) console.log(`${o.scenario}: ${exit.slice(0, 300)}`);
    const refused = Object.entries(o.requests.clientErrors);
    if (refused.length) console.log(`${o.scenario}: 4xx answers to the traffic ${refused.map(([k, n]) => `${k} ×${n}`).join('; ')}`);
    const failed = Object.entries(o.requests.failedByKind);
    if (failed.length) console.log(`${o.scenario}: failed ${failed.map(([k, n]) => `${k} ×${n}`).join('; ')}`);
    if (o.jobs.overlapping.length) console.log(`${o.scenario}: scans at once: ${o.jobs.overlapping.join('; ')}`);
    const replays = o.jobs.bootReplays.map((r) => `${r.id} ${r.status}, signals ${r.signals} counted / ${r.signalRecords} recorded`);
    console.log(`${o.scenario}: boot replays started ${o.jobs.bootReplaysStarted} (expected ${o.jobs.expectedBootReplays}), running: ${replays.join('; ') || 'none'}; unscheduled scans ${JSON.stringify(o.jobs.unscheduled)} (expected ${JSON.stringify(o.jobs.expectedUnscheduled)}); duplicate ledger records ${o.ledger.duplicates.map((d) => `${d.chain} ${d.count}`).join(', ')}`);
  }
}

if (import.meta.main) await benchCluster();
