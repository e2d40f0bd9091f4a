/**
 * @module test/helpers/cluster/run
 * One scenario on the cluster, from start to outcome: the instances up (a
 * crashed one from an earlier scenario is started again first), two stream
 * subscribers on each instance, traffic through the balancer, the fault,
 * then each instance's recovery after the fault's end, a settle (the
 * scheduler's next runs fire the last rules; the streams catch up), the
 * audits of the database, and the rate-limit probes. The outcome holds the
 * numbers; test/cluster asserts on them and bench/cluster prints them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../server-process';
import { auditJobs, auditLedgers, auditStream, auditWrites, storedEvents, type JobAudit, type LedgerAudit, type StoredEvent, type StreamAudit, type WriteAudit } from './audit';
import { LIMITS, LOG_LAG_MS, type Cluster, type Deployment } from './cluster';
import { probeAdmissions, type Admission } from './rate-limit';
import { RECOVERY_WAIT_MS, ScenarioRun, type Scenario } from './scenario-run';

export type { Scenario } from './scenario-run';

/** Issue 26: every instance serves again within 30 s of the fault's end. */
export const READY_DEADLINE_SECONDS = 30;

export interface Outcome {
  scenario: string;
  seconds: number;
  unexpectedExits: string[];
  /** Seconds from the fault's end to ready (/readyz 200), per instance; null: not within RECOVERY_WAIT_MS. */
  recovery: { instance: string; seconds: number | null }[];
  requests: { total: number; failed: number; failedByKind: Record<string, number>; clientErrors: Record<string, number>; retried: number; redispatched: number; noServerSeconds: number };
  writes: WriteAudit;
  ledger: { verifies: boolean; report: string; duplicates: LedgerAudit['duplicateRecords'][] };
  jobs: JobAudit & { expectedUnscheduled: Record<string, number>; expectedBootReplays: number; runsAfterFault: number };
  streams: StreamAudit[];
  admissions: Admission[];
  notes: string[];
}

/** Starts every instance of A that is not running and waits until all are ready and the balancer has them all up. */
async function reviveDeployment(run: ScenarioRun): Promise<void> {
  const { a } = run.cluster;
  for (const instance of a.instances.filter((i) => !i.running)) {
    run.notes.push(`${instance.name} was not running at the start (an earlier scenario's crash): started again`);
    await instance.start();
  }
  for (const instance of a.instances) if (!(await run.waitReady(instance, 120_000))) throw new Error(`${instance.name} is not ready at the start of "${run.scenario.name}": ${JSON.stringify(instance.logs.slice(-5))}`);
  await balancerHasAll(run.cluster, 20_000);
}

async function balancerHasAll(cluster: Cluster, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const { servers } = await cluster.balancer.stats();
    if (Object.values(servers).every((s) => s.startsWith('UP'))) return true;
    await Bun.sleep(250);
  }
  return false;
}

/** Until `deployment` has persisted a scan that started after `after` (its rules fired; bounded: a dead deployment never scans). */
async function nextScan(deployment: Deployment, after: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && deployment.instances.some((i) => i.running)) {
    const rows = await deployment.withSql((sql) => sql<{ id: string }[]>`select id from scan_runs where started_at > ${new Date(after)} limit 1`).catch(() => []);
    if (rows.length > 0) return true;
    await Bun.sleep(500);
  }
  return false;
}

/**
 * `work`'s answer, or `empty` when the database has no tables yet (PostgreSQL
 * 42P01: every instance died before migrating it; the exits say why).
 */
async function orUnmigrated<T>(work: Promise<T>, empty: T): Promise<T> {
  return work.catch((error: unknown) => {
    if ((error as { code?: string }).code === '42P01') return empty;
    throw error;
  });
}

/** Every deployment's stored events (the deployments with subscribers). */
async function storedByDeployment(run: ScenarioRun): Promise<Map<Deployment, StoredEvent[]>> {
  const stored = new Map<Deployment, StoredEvent[]>();
  for (const deployment of new Set(run.subscribers.map((s) => s.deployment))) stored.set(deployment, await orUnmigrated(deployment.withSql(storedEvents), []));
  return stored;
}

/** Each subscriber's stream against its deployment's stored events, owing those in `owed` (default: all). */
function auditStreams(run: ScenarioRun, stored: Map<Deployment, StoredEvent[]>, owed = stored): StreamAudit[] {
  return run.subscribers.map((s) => auditStream(s.subscriber, stored.get(s.deployment) ?? [], owed.get(s.deployment) ?? []));
}

/** Runs `scenario` on `cluster` and returns what happened. */
export async function runScenario(cluster: Cluster, scenario: Scenario): Promise<Outcome> {
  const run = new ScenarioRun(cluster, scenario);
  const { a, balancer } = cluster;
  const startedAt = Date.now();
  try {
    if (!scenario.freshStart) await reviveDeployment(run);
    const before = await balancer.stats();
    run.subscribe(a);
    if (!scenario.freshStart) {
      const deadline = Date.now() + 20_000;
      while (run.subscribers.some((s) => s.subscriber.firstHelloAt === undefined) && Date.now() < deadline) await Bun.sleep(100);
      await run.startTraffic(a, balancer.url);
      await Bun.sleep(2000); // traffic and events flowing before the fault
    }
    const faultFrom = Date.now();
    await scenario.fault(run);
    for (const instance of run.instances) if (!run.faultEnds.has(instance)) run.faultEnded([instance]);
    await run.startTraffic(a, balancer.url);

    // Recovery: each instance ready again after its fault's end (or dead, or out of time).
    const lastEnd = Math.max(...run.faultEnds.values());
    while (Date.now() < lastEnd + RECOVERY_WAIT_MS && run.instances.some((i) => i.running && run.recoveryOf(i) === null)) await Bun.sleep(250);
    await balancerHasAll(cluster, 10_000);
    await Bun.sleep(3000); // traffic after the recovery
    await run.stopTraffic();
    const trafficStopped = Date.now();

    // Settle: the next scans fire the last rules; then the streams catch up with the database. Owed are the
    // events the database showed at the last look while the subscribers were connected (what the scheduler
    // stores after it reaches nobody, as the subscribers stop).
    await Promise.all([a, cluster.b].filter((d) => d !== undefined).map((d) => nextScan(d, trafficStopped, 20_000)));
    let owed = new Map<Deployment, StoredEvent[]>();
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await Bun.sleep(500)) {
      const seen = await storedByDeployment(run).catch(() => undefined);
      if (!seen) continue;
      owed = seen;
      if (auditStreams(run, seen).every((s) => s.lost === 0)) break;
    }
    await Promise.all(run.subscribers.map((s) => s.subscriber.stop()));
    await run.stopMonitor();
    const streams = auditStreams(run, await storedByDeployment(run), owed);

    const deployments = [a, cluster.b].filter((d) => d !== undefined);
    const writes = { acknowledged: 0, lost: [] as string[], duplicated: [] as string[] };
    const duplicates: LedgerAudit['duplicateRecords'][] = [];
    let verifies = true;
    let report = '';
    for (const deployment of deployments) {
      const acked = run.traffic.filter((t) => t.deployment === deployment).flatMap((t) => t.traffic.acked);
      const w = await orUnmigrated(deployment.withSql((sql) => auditWrites(sql, acked)), { acknowledged: acked.length, lost: acked.map((x) => `${x.kind} ${x.id} ${x.marker}`), duplicated: [] });
      writes.acknowledged += w.acknowledged;
      writes.lost.push(...w.lost);
      writes.duplicated.push(...w.duplicated);
      duplicates.push(...(await orUnmigrated(deployment.withSql((sql) => auditLedgers(sql, faultFrom)), [])).map((d) => ({ ...d, examples: d.examples.map((e) => `${deployment.name}: ${e}`) })));
      const verified = await verifyLedger(deployment);
      verifies &&= verified.ok;
      if (!verified.ok) report += `${deployment.name}: ${verified.report}\n`;
    }
    const window = { from: faultFrom, to: Date.now() };
    // A process that did not exit cleanly (killed, or cut off by its shutdown deadline) may not have logged its last pass.
    const cutOff = run.instances.flatMap((i) => i.exits).filter((e) => e.at >= startedAt && (e.code !== 0 || e.signal !== null));
    const unlogged = cutOff.map((e) => ({ from: e.at - LOG_LAG_MS, to: e.at }));
    // Runs not logged yet may belong to a pass still logging: asked again until they are, or LOG_LAG_MS has passed.
    const expectedUnscheduled = scenario.unscheduled ?? {};
    let jobs: JobAudit;
    for (const deadline = Date.now() + LOG_LAG_MS; ; await Bun.sleep(1000)) {
      jobs = await orUnmigrated(a.withSql((sql) => auditJobs(sql, window, a.scheduledBy(unlogged))), { overlapping: [], unscheduled: {}, unscheduledRuns: [], runs: 0, bootReplaysStarted: 0, bootReplays: [] });
      if (Bun.deepEquals(jobs.unscheduled, expectedUnscheduled) || Date.now() > deadline) break;
    }
    const runsAfterFault = await orUnmigrated(a.withSql(async (sql) => (await sql<{ n: number }[]>`select count(*)::int as n from scan_runs where started_at > ${new Date(lastEnd)}`)[0]!.n), 0);

    const admissions = await probe(run);
    const after = await balancer.stats();
    const requests = run.traffic.flatMap((t) => t.traffic.requests);
    const failed = requests.filter((r) => r.status === 0 || r.status >= 500);
    const clientErrors = requests.filter((r) => r.status >= 400 && r.status < 500);
    const exits = run.instances.flatMap((i) => i.exits).filter((e) => e.at >= startedAt && !e.expected);
    return {
      scenario: scenario.name,
      seconds: Math.round((Date.now() - startedAt) / 1000),
      unexpectedExits: [...exits.map((e) => `${e.instance} exited with code ${e.code}${e.signal ? ` (${e.signal})` : ''}: ${e.lastErrors.join(' | ')}`), ...run.notes.filter((n) => n.startsWith('UNEXPECTED '))],
      recovery: run.instances.filter((i) => run.faultEnds.has(i)).map((i) => ({ instance: i.name, seconds: run.recoveryOf(i) })),
      requests: {
        total: requests.length,
        failed: failed.length,
        failedByKind: countBy(failed.map((r) => `${r.method} ${r.path.split('?')[0]} → ${r.status ? `${r.status} from the ${r.by}` : 'no answer'}`)),
        clientErrors: countBy(clientErrors.map((r) => `${r.method} ${r.path.split('?')[0]} → ${r.status}`)),
        retried: after.retries - before.retries,
        redispatched: after.redispatches - before.redispatches,
        noServerSeconds: run.noServerSeconds(faultFrom),
      },
      writes,
      ledger: { verifies, report, duplicates },
      jobs: { ...jobs, expectedUnscheduled, expectedBootReplays: scenario.freshStart ? 1 : 0, runsAfterFault },
      streams,
      admissions,
      notes: run.notes,
    };
  } finally {
    await run.stopTraffic();
    await Promise.all(run.subscribers.map((s) => s.subscriber.stop()));
    await run.stopMonitor();
  }
}

function countBy(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

/** `breakline verify-ledger` against the deployment's database: both chains recomputed. */
async function verifyLedger(deployment: Deployment): Promise<{ ok: boolean; report: string }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-cluster-verify-'));
  try {
    const { code, stdout, stderr } = await runCli(['verify-ledger'], { DATABASE_URL: deployment.env.DATABASE_URL!, STATE_DIR: stateDir });
    return { ok: code === 0, report: `exit ${code}: ${(stdout + stderr).slice(0, 600)}` };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/**
 * Exactly-L probes through the balancer in one window: anonymous requests
 * (each with a made-up X-Forwarded-For, which must not pick the bucket: they
 * are all one client, the balancer's peer) and a fresh free-tier user. With
 * a second deployment, the same two clients on it in the same window: its
 * own quota, not a share of A's.
 */
async function probe(run: ScenarioRun): Promise<Admission[]> {
  const { cluster } = run;
  const count = 50;
  const user = `probe-${crypto.randomUUID().slice(0, 8)}`;
  const cookie = await cluster.session(user, 'free');
  const path = '/api/macro/calendar'; // a public read answered from memory
  const bursts: Parameters<typeof probeAdmissions>[1] = [
    { client: 'A anonymous via balancer', url: `${cluster.balancer.url}${path}`, quota: LIMITS.anonymousQuota, count, headers: (i: number) => ({ 'x-forwarded-for': `203.0.113.${i % 250}` }) },
    { client: 'A free user via balancer', url: `${cluster.balancer.url}${path}`, quota: LIMITS.freeQuota, count, headers: () => ({ cookie }) },
  ];
  const b = cluster.b?.instances.find((i) => i.running);
  if (b) {
    bursts.push({ client: 'B anonymous (same address)', url: `${b.url}${path}`, quota: LIMITS.anonymousQuota, count, headers: () => ({}) });
    bursts.push({ client: 'B free user (same id)', url: `${b.url}${path}`, quota: LIMITS.freeQuota, count, headers: () => ({ cookie }) });
  }
  return probeAdmissions(LIMITS.windowSeconds, bursts);
}
