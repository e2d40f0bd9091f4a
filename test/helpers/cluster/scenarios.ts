/**
 * @module test/helpers/cluster/scenarios
 * The fault scripts of issue 26 ("How it is tested"), in the order they run
 * on one cluster. Each runs with subscribers and traffic going (run.ts);
 * each marks when its fault ended for each instance, from which recovery is
 * counted.
 */
import { schedulerLeader } from './leader';
import { PROFILE } from './profile';
import type { Scenario, ScenarioRun } from './scenario-run';

/** How long PostgreSQL and Redis stay down (issue 26: 20 s; shorter in CI's run). */
const OUTAGE_SECONDS = PROFILE.outageSeconds;
/** A supervisor's pause before it starts a killed process again (systemd's RestartSec, compose's restart policy). */
const RESTART_DELAY_MS = 1000;
/** Time one instance has to exit after SIGTERM (DESIGN §4: drain, exit within 5 s; generous on a busy machine). */
const EXIT_AFTER_SIGTERM_MS = 30_000;

/** Restarts `instance` after SIGTERM, as a rolling restart does, noting a late or failed exit. */
async function restart(run: ScenarioRun, instance: ScenarioRun['instances'][number]): Promise<void> {
  instance.signal('SIGTERM');
  if (!(await instance.exited(EXIT_AFTER_SIGTERM_MS))) {
    run.notes.push(`UNEXPECTED ${instance.name} had not exited ${EXIT_AFTER_SIGTERM_MS / 1000} s after SIGTERM: killed`);
    instance.signal('SIGKILL');
    await instance.exited(10_000);
  }
  await instance.start();
  run.faultEnded([instance]);
  await run.waitReady(instance);
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'fresh database, three instances start at once',
    freshStart: true,
    ci: true,
    unscheduled: { daily: 1 }, // the warm-up's first daily scan, persisted once for the cluster
    async fault(run) {
      const { a, balancer } = run.cluster;
      await Promise.all(a.instances.map((i) => i.start()));
      run.faultEnded();
      // Traffic as soon as the balancer has a server (before that every request is HAProxy's 503).
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline && !Object.values((await balancer.stats()).servers).some((s) => s.startsWith('UP')) && a.instances.some((i) => i.running)) await Bun.sleep(250);
      await run.startTraffic(a, balancer.url);
      // The boot replay (REPLAY_ON_BOOT=on) runs after ready: wait for it, so the audit sees what it wrote.
      const replayDeadline = Date.now() + 240_000;
      for (;;) {
        const [boot] = await a.withSql((sql) => sql<{ status: string }[]>`select status from replay_runs where origin = 'boot' and status = 'done' limit 1`).catch(() => []);
        if (boot || Date.now() > replayDeadline || !a.instances.some((i) => i.running)) break;
        await Bun.sleep(1000);
      }
    },
  },
  {
    name: 'kill -9 of the scheduler leader',
    ci: true,
    async fault(run) {
      const { a } = run.cluster;
      let leader;
      for (const deadline = Date.now() + 20_000; !leader && Date.now() < deadline; await Bun.sleep(500)) leader = await schedulerLeader(a);
      if (!leader) throw new Error('no instance holds the scheduler lock');
      run.notes.push(`leader: ${leader.name}`);
      const killedAt = Date.now();
      leader.signal('SIGKILL'); // its pass in flight dies unlogged: the audit excuses runs that ended before a kill (run.ts)
      await leader.exited(10_000);
      await Bun.sleep(RESTART_DELAY_MS);
      await leader.start();
      run.faultEnded([leader]);
      run.faultEnded(a.instances.filter((i) => i !== leader), killedAt);
    },
  },
  {
    name: 'SIGTERM rolling restart of the three',
    noFailedRequests: true, // issue 26: 0 failed requests through a balancer that follows /readyz
    async fault(run) {
      for (const instance of run.cluster.a.instances) await restart(run, instance);
    },
  },
  {
    name: `Redis stopped ${OUTAGE_SECONDS} s`,
    noFailedRequests: true, // README: with Redis gone each instance counts alone; no request fails for it
    async fault(run) {
      await run.cluster.redis.stop();
      await Bun.sleep(OUTAGE_SECONDS * 1000);
      await run.cluster.redis.start();
      run.faultEnded();
    },
  },
  {
    name: `PostgreSQL stopped ${OUTAGE_SECONDS} s`,
    ci: true,
    async fault(run) {
      await run.cluster.pg.stop();
      await Bun.sleep(OUTAGE_SECONDS * 1000);
      await run.cluster.pg.start();
      run.faultEnded();
    },
  },
  {
    name: 'two deployments on one Redis, different REDIS_KEY_PREFIX',
    async fault(run) {
      const b = await run.cluster.addSecondDeployment('second:');
      run.subscribe(b);
      for (const instance of b.instances) await instance.start();
      const started = Date.now();
      for (const instance of b.instances) await run.waitReady(instance, 120_000);
      run.faultEnded(b.instances, started);
      run.faultEnded(run.cluster.a.instances, started);
      await run.startTraffic(b, b.instances[0]!.url);
      await Bun.sleep(PROFILE.sideBySideMs);
    },
  },
];

/** The scenarios of this run: all of them, or CI's (CLUSTER_SUITE=ci). */
export function suiteScenarios(): Scenario[] {
  return PROFILE.size === 'ci' ? SCENARIOS.filter((s) => s.ci) : SCENARIOS;
}
