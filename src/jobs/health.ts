/**
 * @module jobs/health
 * Health in the background: every `intervalMs` one round checks the database
 * (a query), the market-data provider (its self-check), the rate-limit store
 * (a ping), the worker pool (a task through a worker thread) and the event bus
 * (its own account: stream/bus `BusHealth`), each bounded by a timeout so a
 * hung dependency reads as `down` (a pool answering late is `degraded`: its
 * threads are busy, tasks queue). Probes and /api/health answer from the last
 * round and say how old it is (while the database is down, a round a second,
 * so readiness returns with it); no request ever waits on
 * a check.
 *
 * `WarmUp` is what the boot is doing and what it has done (migrations run, the
 * first scan loaded); readiness is the warm-up done, the last round's
 * database ok and its pool not down.
 *
 * @example
 * const health = new HealthMonitor({ database, provider, rateLimitStore, pool, bus, log }, { intervalMs: 10_000 });
 * await health.start(); // the first round, then one every 10 s
 * health.last?.checks.db; // => 'ok'
 */
import type { Database } from '../db/client';
import type { CheckName, CheckResult, CheckStatus } from '../domain/health';
import type { Logger } from '../log';
import type { KernelPool } from '../pool';
import type { MarketDataProvider } from '../providers/types';
import type { RateLimitStore } from '../ratelimit';
import type { EventBus } from '../stream/bus';

const CHECK_TIMEOUT_MS = 2000;
/**
 * While the database is down, rounds come this often instead of every
 * interval, so readiness returns within about a second of the database
 * (a balancer sends traffic back as soon as /readyz says 200).
 */
const RECOVERY_MS = 1000;

export interface HealthSnapshot {
  checks: Record<CheckName, CheckStatus>;
  details: Record<CheckName, CheckResult>;
  /** Epoch ms when the round finished. */
  checkedAt: number;
}

export interface HealthDeps {
  database: Database;
  provider: MarketDataProvider;
  rateLimitStore: RateLimitStore;
  pool: KernelPool;
  bus: Pick<EventBus, 'check'>;
  log: Logger;
}

export class HealthMonitor {
  private timer: ReturnType<typeof setInterval> | undefined;
  private recheck: ReturnType<typeof setTimeout> | undefined;
  private round: Promise<HealthSnapshot> | undefined;
  private snapshot: HealthSnapshot | undefined;

  constructor(
    private readonly deps: HealthDeps,
    private readonly options: { intervalMs: number; timeoutMs?: number },
  ) {}

  /** The last finished round, or undefined before the first one. */
  get last(): HealthSnapshot | undefined {
    return this.snapshot;
  }

  /** Runs a round now and then every interval (the timer never keeps the process alive). */
  start(): Promise<HealthSnapshot> {
    if (!this.timer) {
      this.timer = setInterval(() => void this.refresh(), this.options.intervalMs);
      this.timer.unref?.();
    }
    return this.refresh();
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.recheck);
    this.timer = this.recheck = undefined;
  }

  /** One round of every check; concurrent callers share the round in flight. */
  refresh(): Promise<HealthSnapshot> {
    this.round ??= this.check().finally(() => (this.round = undefined));
    return this.round;
  }

  private async check(): Promise<HealthSnapshot> {
    const { database, provider, rateLimitStore, pool, bus, log } = this.deps;
    const timeoutMs = this.options.timeoutMs ?? CHECK_TIMEOUT_MS;
    const [db, dataAdapter, kv, poolCheck, busCheck] = await Promise.all([
      timed(timeoutMs, () => database.ping()),
      timed(timeoutMs, async () => {
        const check = await provider.selfCheck();
        return { status: check.status, message: check.message };
      }),
      timed(timeoutMs, async () => {
        await rateLimitStore.ping();
        // Redis away and requests limited in-process per instance: degraded (200), not down.
        const degradation = await rateLimitStore.degradation();
        return degradation ? { status: 'degraded' as const, message: degradation } : undefined;
      }),
      // A pool whose threads are all busy answers late: degraded (tasks queue), not down — on a loaded
      // machine a late ping took instances out of rotation exactly when they were working; a broken pool is down.
      timed(timeoutMs, () => pool.ping(), 'degraded'),
      // Redis away with the log readable: degraded (events come from the database); neither: down.
      timed(timeoutMs, async () => {
        const { status, message } = await bus.check();
        return status === 'ok' ? undefined : { status, message };
      }),
    ]);
    const env: CheckResult = provider.synthetic
      ? { status: 'warn', latencyMs: 0, message: `serving synthetic market data (provider ${provider.name})` }
      : { status: 'ok', latencyMs: 0 };
    const details = { db, dataAdapter, env, kv, pool: poolCheck, bus: busCheck };
    const checks = { db: db.status, dataAdapter: dataAdapter.status, env: env.status, kv: kv.status, pool: poolCheck.status, bus: busCheck.status };
    const previous = this.snapshot?.checks;
    for (const name of Object.keys(checks) as CheckName[]) {
      if (previous && previous[name] !== checks[name]) log.warn('health check changed', { check: name, from: previous[name], to: checks[name], message: details[name].message });
    }
    this.snapshot = { checks, details, checkedAt: Date.now() };
    if (checks.db === 'down' && this.timer && !this.recheck && this.options.intervalMs > RECOVERY_MS) {
      this.recheck = setTimeout(() => {
        this.recheck = undefined;
        void this.refresh();
      }, RECOVERY_MS);
      this.recheck.unref?.();
    }
    return this.snapshot;
  }
}

/** Runs one check within `timeoutMs`: an error is `down`; no answer in time is `late` (down unless said otherwise). */
async function timed(timeoutMs: number, run: () => Promise<{ status: CheckStatus; message?: string } | void>, late: CheckStatus = 'down'): Promise<CheckResult> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    const result = (await Promise.race([run(), timeout])) ?? { status: 'ok' as const };
    const latencyMs = round(performance.now() - started);
    return result === 'late' ? { status: late, latencyMs, message: `no answer within ${timeoutMs} ms` } : { ...result, latencyMs };
  } catch (error) {
    return { status: 'down', latencyMs: round(performance.now() - started), message: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** The boot's progress: the steps it is on (each logged with its duration; some run side by side) and what is done. */
export class WarmUp {
  private current = 'starting';
  private readonly running: string[] = [];
  private readonly started = performance.now();
  /** Migrations have run on the database. */
  migrated = false;
  /** The latest scan of the default timeframe is loaded (or was made). */
  firstScanLoaded = false;
  /** SIGTERM/SIGINT arrived: not ready from that moment on, whatever else holds (cli/shutdown). */
  stopping = false;

  constructor(private readonly log?: Logger) {}

  /** The step in progress (steps side by side joined with ` + `), else the last one begun, or `done`. */
  get step(): string {
    return this.running.length > 1 ? this.running.join(' + ') : this.current;
  }

  /** Milliseconds since the warm-up began. */
  get elapsedMs(): number {
    return Math.round(performance.now() - this.started);
  }

  /** Runs one step of the warm-up, logging what it does and how long it took. */
  async run<T>(step: string, work: () => Promise<T>): Promise<T> {
    this.current = step;
    this.running.push(step);
    const stepStarted = performance.now();
    this.log?.info(`warm-up: ${step}`, { atMs: this.elapsedMs });
    try {
      const result = await work();
      this.log?.info(`warm-up: ${step} done`, { tookMs: Math.round(performance.now() - stepStarted), atMs: this.elapsedMs });
      return result;
    } finally {
      this.running.splice(this.running.indexOf(step), 1);
      if (this.running.length) this.current = this.running.at(-1)!;
    }
  }

  done(): void {
    this.current = 'done';
  }
}

/** The four conditions of readiness, each true or false. */
export interface ReadinessChecks {
  database: boolean;
  migrations: boolean;
  pool: boolean;
  firstScan: boolean;
}

/** Ready: not stopping, migrations done, the first scan loaded, and the last health round found the database up and the pool not down. */
export function readiness(warmUp: WarmUp, last: HealthSnapshot | undefined): { ready: boolean; checks: ReadinessChecks } {
  const checks: ReadinessChecks = {
    database: last?.checks.db === 'ok',
    migrations: warmUp.migrated,
    pool: last !== undefined && last.checks.pool !== 'down',
    firstScan: warmUp.firstScanLoaded,
  };
  return { ready: !warmUp.stopping && Object.values(checks).every(Boolean), checks };
}
