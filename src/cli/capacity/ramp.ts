/**
 * @module cli/capacity/ramp
 * The steps of a capacity run. Step k of n carries k/n of the profile's rate
 * and streams. Each step has two windows, read before and after (cli/capacity/
 * resources): the streams alone (with their events), then the streams and
 * the requests; what the second costs beyond the first is the requests'.
 * The ramp stops at the knee — the first step where a route's p99 or the
 * streams' delivery p99 exceeds the target, an error appears (an answer of
 * 400 or above, a request with no answer, a stream refused or dropped), or
 * the requests offered are not carried (under 90%) — or at the time limit.
 */
import type { StepFigures } from './model';
import type { Profile } from './profile';
import { loadRoutes, type RouteResult } from './http-load';
import { use, type ResourceReader, type ResourceUse } from './resources';
import type { StreamClientsConfig } from './stream-clients';
import type { StreamFleet } from './stream-fleet';

export interface StepResult extends StepFigures {
  step: number;
  seconds: number;
  /** Requests a second offered and carried. */
  offeredRps: number;
  routes: RouteResult[];
  /** Errors by kind: HTTP statuses ≥ 400, `no answer`, `timeout`, `stream <status>`, `stream dropped`. */
  errors: Record<string, number>;
  sse: { clients: number; deliveriesPerSecond: number; p50Ms?: number; p99Ms?: number; laggingClients?: number };
  windows: { streams: ResourceUse; mixed: ResourceUse };
  loopLagP99Ms?: number;
  poolQueue?: number;
}

export interface RampContext {
  base: string;
  profile: Profile;
  reader: ResourceReader;
  fleet: StreamFleet;
  /** The connection settings of the streams (the fleet adds `count`). */
  streams: Omit<StreamClientsConfig, 'count'>;
  /** Sets the local instance's rate of published events (none for a remote target). */
  publish?: (rate: number) => void;
  steps: number;
  stepSeconds: number;
  p99Ms: number;
  /** performance.now() by which the run must be done. */
  deadline: number;
  progress: (line: string) => void;
}

const quantile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : undefined);

/** The first reason the step is past the knee, or null. */
export function kneeOf(step: Pick<StepResult, 'routes' | 'errors' | 'offeredRps' | 'sse'>, p99Ms: number): string | null {
  const slow = step.routes.filter((r) => r.p99Ms > p99Ms).sort((a, b) => b.p99Ms - a.p99Ms)[0];
  if (slow) return `p99 of ${slow.label} ${slow.p99Ms} ms > ${p99Ms} ms`;
  const errors = Object.entries(step.errors).filter(([, n]) => n > 0);
  if (errors.length) return `errors: ${errors.map(([kind, n]) => `${kind} ×${n}`).join(', ')}`;
  const carried = step.routes.reduce((sum, r) => sum + r.rps, 0);
  if (step.offeredRps > 0 && carried < 0.9 * step.offeredRps) return `carried ${Math.round(carried)} of ${Math.round(step.offeredRps)} req/s offered`;
  if (step.sse.p99Ms !== undefined && step.sse.p99Ms > p99Ms) return `stream delivery p99 ${Math.round(step.sse.p99Ms)} ms > ${p99Ms} ms`;
  return null;
}

/** Errors of the routes by kind. */
function routeErrors(routes: readonly RouteResult[]): Record<string, number> {
  const errors: Record<string, number> = {};
  const add = (kind: string, n: number) => n > 0 && (errors[kind] = (errors[kind] ?? 0) + n);
  for (const r of routes) {
    for (const [status, n] of Object.entries(r.statuses)) if (Number(status) >= 400) add(status, n);
    add('no answer', r.failed - r.timeouts);
    add('timeout', r.timeouts);
  }
  return errors;
}

/**
 * Per-unit costs from the two windows: what the streams' window spent beyond
 * idle is charged to its deliveries (or to the open streams when none
 * flowed); what the mixed window spent beyond the streams' rate, to its
 * requests. µs of CPU (or of pool threads) per unit.
 */
export function unitCosts(idle: ResourceUse, streams: ResourceUse, mixed: ResourceUse, counts: { requests: number; deliveries: number; clients: number }) {
  const perUnit = (extra: number | undefined, units: number) => (extra !== undefined && units > 0 ? Math.max(0, (extra * 1e6) / units) : undefined);
  /** `used` in a window beyond `base`'s rate over the same seconds. */
  const beyond = (used: number | undefined, seconds: number, base: ResourceUse, pick: (u: ResourceUse) => number | undefined) => {
    const b = pick(base);
    return used === undefined || b === undefined ? undefined : used - (b / base.seconds) * seconds;
  };
  const cpu = (u: ResourceUse) => u.cpuSeconds;
  const loop = (u: ResourceUse) => u.loopCpuSeconds;
  const pool = (u: ResourceUse) => u.poolBusySeconds;
  const streamCpu = beyond(streams.cpuSeconds, streams.seconds, idle, cpu);
  return {
    cpuUsPerDelivery: perUnit(streamCpu, counts.deliveries),
    cpuUsPerClientSecond: counts.deliveries === 0 ? perUnit(streamCpu, counts.clients * streams.seconds) : undefined,
    loopUsPerDelivery: perUnit(beyond(streams.loopCpuSeconds, streams.seconds, idle, loop), counts.deliveries),
    cpuUsPerRequest: perUnit(beyond(mixed.cpuSeconds, mixed.seconds, streams, cpu), counts.requests),
    loopUsPerRequest: perUnit(beyond(mixed.loopCpuSeconds, mixed.seconds, streams, loop), counts.requests),
    poolUsPerRequest: perUnit(beyond(mixed.poolBusySeconds, mixed.seconds, streams, pool), counts.requests),
  };
}

/** Runs the steps until the knee or the time limit; the steps run, the knee's last. */
export async function ramp(ctx: RampContext): Promise<{ steps: StepResult[]; stopped: string }> {
  const { profile, fleet, reader, progress } = ctx;
  const streamSeconds = Math.min(5, Math.max(2, ctx.stepSeconds / 3));
  // Idle: the server with nothing asked of it (health rounds, timers).
  const idleBefore = await reader.sample();
  await Bun.sleep(2000);
  const idle = use(idleBefore, await reader.sample());
  progress(`idle: ${idle.cpuCores === undefined ? 'CPU not known' : `${(idle.cpuCores * 100).toFixed(1)}% of a core`}`);
  ctx.publish?.(profile.eventRate);
  const steps: StepResult[] = [];
  const refusedSoFar: Record<string, number> = {};
  for (let k = 1; k <= ctx.steps; k++) {
    const left = ctx.deadline - performance.now();
    if (left < (streamSeconds + ctx.stepSeconds + 5) * 1000) return { steps, stopped: `time limit: step ${k} would not finish within --time-limit` };
    const share = k / ctx.steps;
    const rps = profile.rps * share;
    const clients = Math.round(profile.sse.clients * share);
    if (clients > fleet.count) {
      const more = clients - fleet.count;
      progress(`step ${k}/${ctx.steps}: opening ${more} more streams (${clients} in all)`);
      const refused = await fleet.add({ ...ctx.streams, count: more }, Math.max(1, Math.min(4, Math.ceil(more / 2500))), Math.max(10_000, left - ctx.stepSeconds * 1000));
      for (const [status, n] of Object.entries(refused)) refusedSoFar[status] = (refusedSoFar[status] ?? 0) + n;
      await Bun.sleep(1000); // settled: hellos sent, quotes subscribed
    }
    progress(`step ${k}/${ctx.steps}: ${Math.round(rps)} req/s, ${clients} streams`);
    await fleet.report(); // counts from here
    const s0 = await reader.sample();
    await Bun.sleep(streamSeconds * 1000);
    const s1 = await reader.sample();
    const streamReport = await fleet.report();
    const routes = profile.requests.length ? await loadRoutes(ctx.base, profile.requests, { rps, seconds: ctx.stepSeconds, latencyMs: ctx.p99Ms, credential: profile.credential }) : await Bun.sleep(ctx.stepSeconds * 1000).then(() => []);
    const s2 = await reader.sample();
    const mixedReport = await fleet.report();
    const streams = use(s0, s1);
    const mixed = use(s1, s2);
    const requests = routes.reduce((n, r) => n + r.requests, 0);
    const errors = routeErrors(routes);
    for (const [status, n] of Object.entries(refusedSoFar)) errors[`stream ${status}`] = n;
    const dropped = (streams.sseDropped ?? 0) + (mixed.sseDropped ?? 0) + mixedReport.closed - streamReport.closed;
    if (dropped > 0) errors['stream dropped'] = dropped;
    const latencies = [...streamReport.latencies, ...mixedReport.latencies].sort((a, b) => a - b);
    const deliveries = streamReport.received + mixedReport.received;
    const seconds = streams.seconds + mixed.seconds;
    const held = fleet.count - Object.values(refusedSoFar).reduce((a, b) => a + b, 0);
    const step: StepResult = {
      step: k,
      seconds,
      rps: routes.reduce((sum, r) => sum + r.rps, 0), // answered over the load's own seconds (the window also holds the readings around it)
      offeredRps: rps,
      sseClients: held,
      deliveriesPerClient: held > 0 ? deliveries / seconds / held : 0,
      routes,
      errors,
      sse: { clients: held, deliveriesPerSecond: deliveries / seconds, p50Ms: ms(quantile(latencies, 0.5)), p99Ms: ms(quantile(latencies, 0.99)), laggingClients: mixed.sseLagging },
      windows: { streams, mixed },
      ...unitCosts(idle, streams, mixed, { requests, deliveries: streamReport.received, clients: held }),
      cpuCores: mixed.cpuCores,
      loopCores: mixed.loopCores,
      poolUtilization: mixed.poolUtilization,
      rssBytes: mixed.rssBytes,
      dbPingMs: mixed.dbPingSeconds === undefined ? undefined : mixed.dbPingSeconds * 1000,
      loopLagP99Ms: mixed.loopLagP99 === undefined ? undefined : mixed.loopLagP99 * 1000,
      poolQueue: mixed.poolQueue,
      knee: null,
    };
    step.knee = kneeOf(step, ctx.p99Ms);
    steps.push(step);
    progress(`step ${k}/${ctx.steps}: carried ${Math.round(step.rps)} req/s, worst p99 ${Math.max(0, ...routes.map((r) => r.p99Ms))} ms, ${Math.round(step.sse.deliveriesPerSecond)} deliveries/s${step.sse.p99Ms === undefined ? '' : ` (p99 ${Math.round(step.sse.p99Ms)} ms)`}, CPU ${step.cpuCores === undefined ? '?' : `${Math.round(step.cpuCores * 100)}%`}${step.knee ? ` — knee: ${step.knee}` : ''}`);
    if (step.knee) return { steps, stopped: `knee at step ${k}: ${step.knee}` };
  }
  return { steps, stopped: `no knee within ${ctx.steps} steps (the profile's top: ${profile.rps} req/s, ${profile.sse.clients} streams)` };
}

const ms = (us: number | undefined) => (us === undefined ? undefined : us / 1000);
