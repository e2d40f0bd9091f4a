/**
 * @module test/helpers/cluster/cluster
 * The production shape of issue 26, on loopback: a private PostgreSQL 15
 * and Redis, HAProxy (deploy/haproxy.cfg) in front of three `breakline
 * serve` instances of deployment A, and room for a second deployment B on
 * the same servers (its own database, its own REDIS_KEY_PREFIX). Sessions
 * come from a test identity provider (an ES256 key the instances trust
 * through AUTH_ISSUER + AUTH_PUBLIC_KEY), as in production, so a session or
 * an API key works on every instance.
 *
 * Settings are small so the whole suite fits in minutes on two cores (see
 * CLUSTER_ENV): a 16-symbol market (./market; 6 in CI's run), scans every 5 s, health rounds
 * every 2 s, 10 s rate-limit windows.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import type { Tier } from '../../../src/domain/tiers';
import type { ScanRun } from './audit';
import { signingKey, signToken, type TestSigningKey } from '../auth';
import { startHaproxy, type Balancer } from './haproxy';
import { Instance } from './instance';
import { writeClusterMarket } from './market';
import { freePorts, releaseAll } from './ports';
import { startPostgres, type PrivatePostgres } from './postgres';
import { startRedis, type PrivateRedis } from './redis';

export const ISSUER = 'https://idp.cluster.test';

/**
 * How long after a scan run ends its scheduler may still be logging it: the
 * pass logs `scan persisted` after saving, alert rules, outcomes and the
 * checkpoint. The longest seen: 36 s (a 4h run whose 140 rule dispatches
 * took 35 s, late in the full suite, 1-minute load 30 on 2 cores).
 */
export const LOG_LAG_MS = 60_000;

/** The numbers the suite's assertions are made of (each also set on the instances through CLUSTER_ENV). */
export const LIMITS = {
  /** RATE_LIMIT_WINDOW_SECONDS. */
  windowSeconds: 10,
  /** RATE_LIMIT_QUOTA: anonymous clients, per address. */
  anonymousQuota: 20,
  /** RATE_LIMIT_QUOTA_FREE: a free-tier user. */
  freeQuota: 15,
  /** SCAN_INTERVAL_SECONDS. */
  scanIntervalSeconds: 5,
} as const;

/** The environment every instance of every deployment gets (plus its database, Redis prefix, port and STATE_DIR). */
export const CLUSTER_ENV: Record<string, string> = {
  HOST: '127.0.0.1',
  MARKET_DATA_PROVIDER: 'csv',
  SCAN_INTERVAL_SECONDS: String(LIMITS.scanIntervalSeconds),
  // The boot replay runs (two years of the market): it is a once-per-cluster job to check.
  REPLAY_ON_BOOT: 'on',
  POOL_SIZE: '1',
  HEALTH_CHECK_INTERVAL_SECONDS: '2',
  // One proxy hop: HAProxy appends the client's address to X-Forwarded-For, and the
  // instances take the last entry (plugins/client-address), never one a client wrote.
  TRUST_PROXY: '1',
  RATE_LIMIT_WINDOW_SECONDS: String(LIMITS.windowSeconds),
  RATE_LIMIT_QUOTA: String(LIMITS.anonymousQuota),
  RATE_LIMIT_QUOTA_FREE: String(LIMITS.freeQuota),
  // The traffic's users are enterprise-tier: their own quota never stands in the way.
  RATE_LIMIT_QUOTA_PRO: '100000',
  RATE_LIMIT_QUOTA_ENTERPRISE: '100000',
  ALERT_RULES_PER_TIER: '5,50,100000',
  WATCHLISTS_PER_TIER: '3,20,100000',
  LOG_LEVEL: 'info',
};

/** Clusters not destroyed yet: an interrupted test run stops them on its way out. */
const live = new Set<Cluster>();
const stopAll = () => {
  for (const cluster of live) cluster.destroyNow();
  live.clear();
};
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stopAll();
    process.exit(130);
  });
}

export class Deployment {
  readonly instances: Instance[];

  constructor(
    readonly name: string,
    readonly database: string,
    readonly adminUrl: string,
    readonly env: Record<string, string>,
    ports: number[],
    stateRoot: string,
  ) {
    this.instances = ports.map((port, i) => {
      const stateDir = join(stateRoot, `${name}-${i + 1}`);
      mkdirSync(stateDir, { recursive: true });
      return new Instance(`${name === 'a' ? '' : `${name}:`}app${i + 1}`, port, { ...env, STATE_DIR: stateDir });
    });
  }

  /** A short-lived superuser connection to this deployment's database. */
  async withSql<T>(work: (sql: postgres.Sql) => Promise<T>): Promise<T> {
    const sql = postgres(this.adminUrl, { max: 2, onnotice: () => {}, connect_timeout: 10 });
    try {
      return await work(sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
  }

  /**
   * Whether a scheduler persisted `run`, as the instances' logs say so far:
   * an instance logged its id; or a scheduler pass of its timeframe failed
   * after it was committed (logged within LOG_LAG_MS of its end); or it
   * ended in a window where a process that did not exit cleanly may have
   * lost its last lines (`unlogged`). A run whose pass is still logging is
   * not one yet: run.ts asks again until LOG_LAG_MS has passed.
   */
  scheduledBy(unlogged: { from: number; to: number }[]): (run: ScanRun) => boolean {
    const logs = this.instances.map((i) => i.schedulerLog());
    const persisted = new Set(logs.flatMap((l) => l.persisted));
    const failed = logs.flatMap((l) => l.failed);
    return (run) => {
      const end = run.finishedAt.getTime();
      return persisted.has(run.id) || failed.some((f) => f.timeframe === run.timeframe && f.at >= end && f.at <= end + LOG_LAG_MS) || unlogged.some((w) => end >= w.from && end <= w.to);
    };
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.instances.map((i) => i.shutdown()));
  }
}

export class Cluster {
  readonly a: Deployment;
  b: Deployment | undefined;

  private constructor(
    readonly root: string,
    readonly pg: PrivatePostgres,
    readonly redis: PrivateRedis,
    readonly balancer: Balancer,
    private readonly idp: TestSigningKey,
    private readonly csvDir: string,
    private readonly spare: number[],
  ) {
    this.a = this.deployment('a', 'breakline_a', undefined, spare.splice(0, 3));
  }

  /** Servers, market and balancer up; deployment A configured on an empty database but not started. */
  static async create(): Promise<Cluster> {
    const root = mkdtempSync(join(tmpdir(), 'breakline-cluster-'));
    const [pgPort, redisPort, balancerPort, statsPort, ...instancePorts] = await freePorts(8);
    const csvDir = join(root, 'market');
    const [pg, redis, idp] = await Promise.all([startPostgres(pgPort!), startRedis(redisPort!), signingKey('ES256', 'cluster'), writeClusterMarket(csvDir)]);
    await pg.createDatabase('breakline_a');
    const balancer = await startHaproxy({ port: balancerPort!, statsPort: statsPort!, servers: instancePorts.slice(0, 3).map((p) => `127.0.0.1:${p}`) });
    const cluster = new Cluster(root, pg, redis, balancer, idp, csvDir, instancePorts);
    live.add(cluster);
    return cluster;
  }

  /** Kills everything at once, synchronously (the test process is being interrupted: PostgreSQL would outlive it). */
  destroyNow(): void {
    for (const instance of [...this.a.instances, ...(this.b?.instances ?? [])]) instance.killNow();
    this.balancer.stopNow();
    this.redis.destroyNow();
    this.pg.destroyNow();
    rmSync(this.root, { recursive: true, force: true });
  }

  private deployment(name: string, database: string, prefix: string | undefined, ports: number[], extra: Record<string, string> = {}): Deployment {
    const env = {
      ...CLUSTER_ENV,
      CSV_DIR: this.csvDir,
      DATABASE_URL: this.pg.url(database),
      REDIS_URL: this.redis.url,
      ...(prefix ? { REDIS_KEY_PREFIX: prefix } : {}),
      AUTH_ISSUER: ISSUER,
      AUTH_PUBLIC_KEY: this.idp.publicPem,
      ...extra,
    };
    return new Deployment(name, database, this.pg.adminUrl(database), env, ports, this.root);
  }

  /** Deployment B: one instance on its own (empty) database, sharing Redis under `prefix`, without a boot replay (A's is the one audited); not started. */
  async addSecondDeployment(prefix: string): Promise<Deployment> {
    await this.pg.createDatabase('breakline_b');
    this.b = this.deployment('b', 'breakline_b', prefix, this.spare.splice(0, 1), { REPLAY_ON_BOOT: 'off' });
    return this.b;
  }

  /** A `__session` cookie of the test identity provider for `userId` at `tier`, valid an hour. */
  async session(userId: string, tier: Tier): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return `__session=${await signToken(this.idp, { iss: ISSUER, sub: userId, tier, iat: now, exp: now + 3600 })}`;
  }

  async destroy(): Promise<void> {
    live.delete(this);
    await Promise.all([this.a.shutdown(), this.b?.shutdown()]);
    await this.balancer.stop().catch(() => {});
    await this.redis.destroy().catch(() => {});
    await this.pg.destroy().catch(() => {});
    releaseAll();
    rmSync(this.root, { recursive: true, force: true });
  }
}
