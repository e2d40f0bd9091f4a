/**
 * @module test/helpers/cluster/scenario-run
 * What a scenario's fault script works with (scenarios.ts) and what the
 * runner reads back (run.ts): when the fault ended for each instance, the
 * stream subscribers and the traffic it started, and each instance's
 * readiness (and the balancer's servers) sampled every quarter second from
 * the scenario's start, from which recovery is measured.
 */
import type { Cluster, Deployment } from './cluster';
import type { Instance } from './instance';
import { Subscriber } from './subscriber';
import { Traffic } from './traffic';

/** How long the suite waits for an instance that is not ready (past the 30 s deadline, so the table shows the real time). */
export const RECOVERY_WAIT_MS = 45_000;

export interface Scenario {
  name: string;
  /** The first scenario: the fault is the three instances starting at once on the empty database. */
  freshStart?: boolean;
  /** Scans persisted outside the scheduler that are right in this scenario (the warm-up's first daily scan). */
  unscheduled?: Record<string, number>;
  /** One of CI's scenarios (CLUSTER_SUITE=ci, ./profile). */
  ci?: boolean;
  /** The scenario must cost no request through the balancer (an answer for every one, none 5xx). */
  noFailedRequests?: boolean;
  fault(run: ScenarioRun): Promise<void>;
}

/** The API key each deployment's traffic made (in its first scenario), for the traffic of the next. */
const apiKeys = new WeakMap<Deployment, string>();

/** What a scenario's fault script works with. */
export class ScenarioRun {
  readonly notes: string[] = [];
  /** When the fault ended for each instance (default: when the script returned). */
  readonly faultEnds = new Map<Instance, number>();
  readonly subscribers: { deployment: Deployment; subscriber: Subscriber }[] = [];
  readonly traffic: { deployment: Deployment; traffic: Traffic }[] = [];
  private readonly samples = new Map<Instance, { at: number; ready: boolean }[]>();
  /** The balancer's count of servers up, sampled with readiness. */
  readonly balancerUp: { at: number; up: number }[] = [];
  private monitoring = true;
  private readonly monitor: Promise<void>;
  private static address = 0;

  constructor(
    readonly cluster: Cluster,
    readonly scenario: Scenario,
  ) {
    this.monitor = this.watchReadiness();
  }

  get instances(): Instance[] {
    return [...this.cluster.a.instances, ...(this.cluster.b?.instances ?? [])];
  }

  /** The fault ended for `instances` (all of A by default) now. */
  faultEnded(instances: Instance[] = this.cluster.a.instances, at = Date.now()): void {
    for (const instance of instances) this.faultEnds.set(instance, at);
  }

  /** Two subscribers on each instance of `deployment`, each its own client address. */
  subscribe(deployment: Deployment): void {
    for (const instance of deployment.instances) {
      for (const n of ['a', 'b']) {
        const subscriber = new Subscriber(`${instance.name}/${n}`, instance.url, `198.51.100.${++ScenarioRun.address % 250}`);
        subscriber.start();
        this.subscribers.push({ deployment, subscriber });
      }
    }
  }

  /** Traffic of `deployment`'s trader against `baseUrl` (the balancer for A). */
  async startTraffic(deployment: Deployment, baseUrl: string): Promise<void> {
    if (this.traffic.some((t) => t.deployment === deployment)) return;
    const credentials = { cookie: await this.cluster.session(`trader-${deployment.name}`, 'enterprise'), apiKey: apiKeys.get(deployment) };
    const traffic = new Traffic(baseUrl, credentials, { workers: 3, pauseMs: 100, ruleEveryMs: 1500 }, `${deployment.name}-${this.scenario.name.replace(/\W+/g, '-')}`);
    traffic.start();
    this.traffic.push({ deployment, traffic });
  }

  /** Resolves once `instance` answers /readyz 200 (true), or false when it has died or `ms` passed. */
  async waitReady(instance: Instance, ms = RECOVERY_WAIT_MS): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (await instance.ready()) return true;
      if (!instance.running) return false;
      await Bun.sleep(250);
    }
    return false;
  }

  /** Seconds from the fault's end to the first ready answer after it; null when none came. */
  recoveryOf(instance: Instance): number | null {
    const end = this.faultEnds.get(instance);
    if (end === undefined) return null;
    const first = (this.samples.get(instance) ?? []).find((s) => s.at >= end && s.ready);
    return first ? Math.round((first.at - end) / 100) / 10 : null;
  }

  /** Stops the traffic (keeping each deployment's API key for the next scenario); resolves when no request is in flight. */
  async stopTraffic(): Promise<void> {
    await Promise.all(this.traffic.map((t) => t.traffic.stop()));
    for (const { deployment, traffic } of this.traffic) if (traffic.credentials.apiKey) apiKeys.set(deployment, traffic.credentials.apiKey);
  }

  /** Seconds since `from` during which the balancer had no server up (its samples' spans). */
  noServerSeconds(from: number): number {
    let ms = 0;
    const samples = this.balancerUp.filter((s) => s.at >= from);
    for (let i = 1; i < samples.length; i++) if (samples[i - 1]!.up === 0) ms += samples[i]!.at - samples[i - 1]!.at;
    return Math.round(ms / 100) / 10;
  }

  async stopMonitor(): Promise<void> {
    this.monitoring = false;
    await this.monitor;
  }

  private async watchReadiness(): Promise<void> {
    while (this.monitoring) {
      await Promise.all([
        this.cluster.balancer
          .stats()
          .then(({ servers }) => this.balancerUp.push({ at: Date.now(), up: Object.values(servers).filter((s) => s.startsWith('UP')).length }))
          .catch(() => {}),
        ...this.instances.map(async (instance) => {
          const at = Date.now();
          const ready = await instance.ready();
          const list = this.samples.get(instance) ?? [];
          list.push({ at, ready });
          this.samples.set(instance, list);
        }),
      ]);
      await Bun.sleep(250);
    }
  }
}

