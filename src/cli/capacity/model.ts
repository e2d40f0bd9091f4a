/**
 * @module cli/capacity/model
 * From the steps of a run to a plan: the capacity of one instance for the
 * profile, and the instances a target needs, resource by resource, with the
 * one that binds first and the setting to change first.
 *
 * The model, printed with every plan (`ASSUMPTIONS`):
 * - each resource's use grows linearly with the load — CPU and the event
 *   loop's share with requests and deliveries (the unit costs are measured in
 *   each step: a window of streams alone, then streams and requests, their
 *   difference charged to the requests), memory with open streams (a line
 *   fitted over the steps);
 * - an instance is usable up to the utilisation at which the run found the
 *   knee (the last step that held the p99 and had no errors); without a knee,
 *   up to 80% (an assumption, not a measurement);
 * - instances share nothing that binds but the database: n instances carry n
 *   times one instance's load, and each holds up to DB_POOL_MAX connections
 *   (plus one for its cluster locks) of the database's max_connections;
 * - the target's requests have the profile's mix, its streams the profile's
 *   channels and symbols and the delivery rate per stream the run measured;
 * - the load balancer spreads requests and streams evenly.
 */
import { ridgeFit } from '../../kernels/stats';

/** One step's figures the model reads (cli/capacity/ramp `StepResult` has them). */
export interface StepFigures {
  rps: number;
  sseClients: number;
  /** Deliveries a second per open stream. */
  deliveriesPerClient: number;
  /** CPU per request and per delivery, core-µs; undefined when the step could not tell. */
  cpuUsPerRequest?: number;
  cpuUsPerDelivery?: number;
  /** CPU per second per open stream with no events (pings, timers), core-µs. */
  cpuUsPerClientSecond?: number;
  loopUsPerRequest?: number;
  loopUsPerDelivery?: number;
  /** Pool thread-µs per request. */
  poolUsPerRequest?: number;
  cpuCores?: number;
  loopCores?: number;
  poolUtilization?: number;
  rssBytes?: number;
  dbPingMs?: number;
  knee: string | null;
}

export interface InstanceLimits {
  /** Cores of one instance; undefined: not known (remote without --cores). */
  cores?: number;
  poolThreads?: number;
  memoryBytes?: number;
  sseMaxConnections?: number;
  dbPoolMax?: number;
  dbMaxConnections: number;
  /** Whether the database is PostgreSQL (PGlite: one process, no cluster). */
  postgres: boolean;
}

export type Resource = 'latency (measured knee)' | 'CPU' | 'event loop' | 'worker pool' | 'memory' | 'stream cap' | 'database connections';

export interface ResourceNeed {
  resource: Resource;
  /** Instances this resource alone needs (fractional), or undefined when it cannot be told. */
  instances?: number;
  /** How the figure was made. */
  basis: string;
}

export interface Plan {
  /** One instance's capacity for the profile: the last step that held, and what the CPU model says it would carry. */
  perInstance: { rps: number; sse: number; atUtilization?: number; cpuModelRps?: number };
  needs: ResourceNeed[];
  instances?: number;
  binding?: Resource;
  /** The setting to change first, in words. */
  advice: string;
  /** Warnings about the figures (no knee, a missing measurement…). */
  caveats: string[];
}

export const ASSUMPTIONS = [
  'CPU, the event loop and the pool grow linearly with requests and stream deliveries; memory with open streams (unit costs measured per step)',
  'an instance is usable up to the utilisation at the knee (the last step that held the p99 without errors); without a knee, 80% (assumed)',
  'instances share nothing that binds but the database: n instances carry n× one instance; each holds DB_POOL_MAX + 1 database connections',
  "the target's requests follow the profile's mix, its streams the profile's channels, symbols and measured delivery rate",
  'the load balancer spreads requests and streams evenly; the load generator ran on the same machine unless --url pointed elsewhere',
];

const median = (xs: number[]) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : undefined;
};

/**
 * Least squares line y = a + b·x (ordinary least squares: kernels/stats
 * `ridgeFit` with λ = 0) and its R², or undefined for fewer than two distinct x.
 */
export function fitLine(xs: readonly number[], ys: readonly number[]): { intercept: number; slope: number; r2: number } | undefined {
  if (xs.length < 2 || ys.length !== xs.length || new Set(xs).size < 2) return undefined;
  const { intercept, coefficients } = ridgeFit(xs.map((x) => [x]), ys, { l2: 0 });
  const slope = coefficients[0]!;
  const mean = ys.reduce((a, b) => a + b, 0) / ys.length;
  let residual = 0;
  let total = 0;
  ys.forEach((y, i) => {
    residual += (y - intercept - slope * xs[i]!) ** 2;
    total += (y - mean) ** 2;
  });
  return { intercept, slope, r2: total === 0 ? 1 : 1 - residual / total };
}

const ADVICE: Record<Resource, string> = {
  'latency (measured knee)': 'more instances; the run names what grew at its knee',
  CPU: 'more instances (or more cores each): requests and fan-out run on the event loop, so POOL_SIZE does not carry them',
  'event loop': 'more instances per host (one event loop each; a process uses about one core for requests and streams), or fewer quote ticks (SSE_QUOTE_INTERVAL_MS)',
  'worker pool': 'POOL_SIZE (worker threads; default: the cores) — while the cores have room',
  memory: 'SSE_MAX_CONNECTIONS below what memory holds (and SSE_QUEUE_KB, SSE_REPLAY_SIZE), then more instances',
  'stream cap': 'SSE_MAX_CONNECTIONS (streams per instance, default 10,000) — while memory and CPU have room',
  'database connections': 'DB_POOL_MAX lower (connections per instance), or a pooler (PgBouncer) in front of PostgreSQL, or max_connections higher',
};

/** The plan for `target` from the steps of a run (the knee step, if any, last). */
export function plan(steps: readonly StepFigures[], limits: InstanceLimits, target: { rps: number; sse: number } | undefined): Plan {
  const caveats: string[] = [];
  const good = steps.filter((s) => s.knee === null);
  const kneeStep = steps.find((s) => s.knee !== null);
  const last = good.at(-1);
  if (!kneeStep) caveats.push('no knee within the ramp: the capacity is at least the last step; ramp higher (--rps, --sse) to find it');
  if (!last) caveats.push('the first step already failed: the capacity is below it; ramp from lower (--rps, --sse, --steps)');
  const usable = (measured: number | undefined) => (kneeStep && measured !== undefined && measured > 0 ? measured : 0.8);
  const cpuReq = median(steps.map((s) => s.cpuUsPerRequest ?? NaN));
  const cpuDel = median(steps.map((s) => s.cpuUsPerDelivery ?? NaN));
  const cpuClient = median(steps.map((s) => s.cpuUsPerClientSecond ?? NaN)) ?? 0;
  const loopReq = median(steps.map((s) => s.loopUsPerRequest ?? NaN));
  const loopDel = median(steps.map((s) => s.loopUsPerDelivery ?? NaN));
  const poolReq = median(steps.map((s) => s.poolUsPerRequest ?? NaN));
  const perClient = median(steps.filter((s) => s.sseClients > 0).map((s) => s.deliveriesPerClient)) ?? 0;
  const cpuShare = last?.cpuCores !== undefined && limits.cores ? last.cpuCores / limits.cores : undefined;
  const cpuUsable = usable(kneeStep && cpuShare);
  const perInstance = { rps: last?.rps ?? 0, sse: last?.sseClients ?? 0, atUtilization: cpuShare };
  const cpuModelRps = cpuReq && limits.cores ? Math.max(0, (limits.cores * cpuUsable * 1e6 - (last?.sseClients ?? 0) * (perClient * (cpuDel ?? 0) + cpuClient)) / cpuReq) : undefined;
  const advice = (resource: Resource | undefined) => (resource ? ADVICE[resource] : 'give --target to plan for a load');
  if (!target) return { perInstance: { ...perInstance, cpuModelRps }, needs: [], advice: advice(undefined), caveats };

  const needs: ResourceNeed[] = [];
  if (last) {
    const byRps = last.rps > 0 ? target.rps / last.rps : target.rps > 0 ? Infinity : 0;
    const bySse = last.sseClients > 0 ? target.sse / last.sseClients : target.sse > 0 ? Infinity : 0;
    needs.push({ resource: 'latency (measured knee)', instances: Math.max(byRps, bySse), basis: `the last step that held: ${round(last.rps)} req/s with ${last.sseClients} streams` });
  }
  const deliveries = target.sse * perClient;
  if (limits.cores && cpuReq !== undefined) {
    const work = target.rps * cpuReq + deliveries * (cpuDel ?? 0) + target.sse * cpuClient;
    needs.push({ resource: 'CPU', instances: work / (limits.cores * cpuUsable * 1e6), basis: `${round(cpuReq)} µs/request, ${round(cpuDel ?? 0)} µs/delivery on ${limits.cores} cores at ${pct(cpuUsable)}` });
  } else needs.push({ resource: 'CPU', basis: limits.cores ? 'no CPU figure per request (no requests in the profile?)' : 'cores of an instance unknown: give --cores' });
  if (loopReq !== undefined) {
    const loopShare = last?.loopCores;
    const loopUsable = usable(kneeStep && loopShare);
    const work = target.rps * loopReq + deliveries * (loopDel ?? 0);
    needs.push({ resource: 'event loop', instances: work / (loopUsable * 1e6), basis: `main thread ${round(loopReq)} µs/request, ${round(loopDel ?? 0)} µs/delivery; one thread at ${pct(loopUsable)}` });
  } else needs.push({ resource: 'event loop', basis: 'main-thread CPU is read from /proc: only for a local server (this machine, or --pid)' });
  if (poolReq !== undefined && limits.poolThreads) {
    needs.push({ resource: 'worker pool', instances: (target.rps * poolReq) / (limits.poolThreads * 0.8 * 1e6), basis: `${round(poolReq)} thread-µs/request on ${limits.poolThreads} threads at 80%` });
  }
  const rss = fitLine(
    steps.filter((s) => s.rssBytes !== undefined).map((s) => s.sseClients),
    steps.filter((s) => s.rssBytes !== undefined).map((s) => s.rssBytes!),
  );
  if (limits.memoryBytes && rss) {
    const perStream = Math.max(0, rss.slope);
    const room = limits.memoryBytes - rss.intercept;
    needs.push({ resource: 'memory', instances: room > 0 ? (target.sse * perStream) / room : Infinity, basis: `${round(perStream / 1024)} KB a stream over ${round(rss.intercept / 2 ** 20)} MB, in ${round(limits.memoryBytes / 2 ** 20)} MB` });
  } else needs.push({ resource: 'memory', basis: rss ? `${round(Math.max(0, rss.slope) / 1024)} KB a stream over ${round(rss.intercept / 2 ** 20)} MB; give --memory-mb to plan with a limit` : 'RSS not known' });
  if (limits.sseMaxConnections) needs.push({ resource: 'stream cap', instances: target.sse / limits.sseMaxConnections, basis: `SSE_MAX_CONNECTIONS ${limits.sseMaxConnections}` });
  const sized = needs.filter((n): n is ResourceNeed & { instances: number } => n.instances !== undefined);
  const worst = sized.reduce<(ResourceNeed & { instances: number }) | undefined>((a, b) => (!a || b.instances > a.instances ? b : a), undefined);
  let instances = worst ? Math.max(1, Math.ceil(worst.instances - 1e-9)) : undefined;
  let binding = worst?.resource;
  // What the measured knee binds on is the resource the run saw saturate there, when one did.
  if (binding === 'latency (measured knee)' && kneeStep) binding = saturated(kneeStep, limits) ?? binding;
  if (limits.postgres && limits.dbPoolMax && instances !== undefined) {
    const most = Math.floor(limits.dbMaxConnections / (limits.dbPoolMax + 1));
    needs.push({ resource: 'database connections', instances: undefined, basis: `${most} instances at most: max_connections ${limits.dbMaxConnections} ÷ (DB_POOL_MAX ${limits.dbPoolMax} + 1)` });
    if (instances > most) {
      binding = 'database connections';
      caveats.push(`${instances} instances would open ${instances * (limits.dbPoolMax + 1)} database connections, more than max_connections ${limits.dbMaxConnections}`);
    }
  }
  if (instances === undefined) caveats.push('no resource could be sized: see the bases');
  else if (!Number.isFinite(instances)) {
    instances = undefined;
    caveats.push('the target has a load the profile never ran (requests or streams at 0 in every step): no count can be given');
  }
  return { perInstance: { ...perInstance, cpuModelRps }, needs, instances, binding, advice: advice(binding), caveats };
}

/** At the knee, which resource ran out: the event loop, the cores, the pool, the database. */
export function saturated(step: StepFigures, limits: InstanceLimits): Resource | undefined {
  if (step.loopCores !== undefined && step.loopCores >= 0.85) return 'event loop';
  if (step.cpuCores !== undefined && limits.cores && step.cpuCores >= 0.85 * limits.cores) return 'CPU';
  if (step.poolUtilization !== undefined && step.poolUtilization >= 0.85) return 'worker pool';
  if (step.dbPingMs !== undefined && step.dbPingMs >= 50) return 'database connections';
  return undefined;
}

const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 10) / 10);
const pct = (x: number) => `${Math.round(x * 100)}%`;
