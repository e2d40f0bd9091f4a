/**
 * @module cli/capacity/run
 * One capacity run: the target (the deployment at `--url`, or a local
 * instance started on the embedded defaults), the profile checked against
 * its OpenAPI document, the streams' client processes, the ramp, and the plan
 * from its steps. Everything it starts it stops, on success, failure or the
 * time limit (cli/capacity/index holds the hard bound).
 */
import { availableParallelism, loadavg } from 'node:os';
import { plan, type InstanceLimits, type Plan } from './model';
import type { CapacityOptions } from './options';
import { documentedOperations, undocumented, type Profile } from './profile';
import { ramp, type StepResult } from './ramp';
import { fromMetrics, parseMetrics, ResourceReader } from './resources';
import { instanceEnv, startRole, type RoleProcess } from './local';
import { selfCommand } from './self';
import type { EventClock, StreamClientsConfig } from './stream-clients';
import { StreamFleet } from './stream-fleet';

export interface RunResult {
  /** What was loaded: `local` (started here) or the URL. */
  target: string;
  startedAt: string;
  /** 1-minute load average of this machine at the start and the end (the load generator shares it when local). */
  loadAverage: [number, number];
  profile: Profile;
  steps: StepResult[];
  stopped: string;
  limits: InstanceLimits;
  plan: Plan;
}

/** Things a run started, stopped in reverse order whatever happens. */
export class Cleanup {
  private readonly tasks: (() => Promise<void>)[] = [];
  add(task: () => Promise<void>): void {
    this.tasks.push(task);
  }
  async run(): Promise<void> {
    for (const task of this.tasks.splice(0).reverse()) await task().catch(() => {});
  }
}

/** The stream request path of the profile: its channels and quote symbols (spec §6: CSV `channels`, `symbols`). */
export function streamPath(sse: Profile['sse']): string {
  const query = new URLSearchParams({ channels: sse.channels.join(',') });
  if (sse.symbols.length) query.set('symbols', sse.symbols.join(','));
  return `/api/stream?${query.toString().replaceAll('%2C', ',')}`;
}

/**
 * The events the stream clients count and how each is timed: on a local
 * instance the published `breakouts.state_change` events carry their publish
 * time; elsewhere a state change carries a real price, so only a quote's age
 * (its `ts`) can be read.
 */
export function streamEvents(sse: Profile['sse'], local: boolean): Record<string, EventClock> {
  const events: Record<string, EventClock> = {};
  for (const channel of sse.channels) events[channel] = local && channel === 'breakouts.state_change' ? 'price' : null;
  if (sse.symbols.length) events.quote = local ? null : 'ts';
  return events;
}

/** Starts the local instance when there is no --url; the base URL, the pid to read from /proc, and whether it is ours. */
async function target(options: CapacityOptions, profile: Profile, cleanup: Cleanup, progress: (line: string) => void): Promise<{ base: string; pid?: number; instance?: RoleProcess }> {
  if (options.url) return { base: options.url, pid: options.pid };
  progress('starting a local instance on the embedded defaults (PGlite in a temporary directory, synthetic market)…');
  const instance = await startRole('instance', instanceEnv({ sseClients: profile.sse.clients, quoteIntervalMs: profile.quoteIntervalMs, extra: options.env }));
  cleanup.add(() => instance.stop());
  progress(`local instance ready at ${instance.url} (pid ${instance.pid})`);
  return { base: instance.url, pid: instance.pid, instance };
}

/**
 * Asks every path of the profile once, one after the other, before anything
 * is measured: a deployment in service has its caches filled and its GraphQL
 * schema compiled, and a route that answers an error is named now rather
 * than found as the knee of step 1.
 */
export async function warmRoutes(base: string, profile: Profile, progress: (line: string) => void): Promise<void> {
  const failures: string[] = [];
  for (const request of profile.requests) {
    for (const path of new Set(request.paths)) {
      const headers: Record<string, string> = { ...(request.auth ? profile.credential : {}), ...(request.body ? { 'content-type': 'application/json' } : {}) };
      const status = await fetch(`${base}${path}`, { method: request.method, headers, body: request.body, signal: AbortSignal.timeout(60_000) }).then(
        async (r) => (await r.arrayBuffer(), r.status),
        (error: Error) => error.name,
      );
      if (status !== 200) failures.push(`${request.method} ${path}: ${status}`);
    }
  }
  if (failures.length) throw new Error(`the profile's requests must answer 200 before they are loaded:\n  ${failures.join('\n  ')}`);
  progress(`warmed ${profile.requests.reduce((n, r) => n + new Set(r.paths).size, 0)} paths`);
}

export async function runCapacity(options: CapacityOptions, profile: Profile, cleanup: Cleanup, progress: (line: string) => void): Promise<RunResult> {
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg()[0]!;
  const { base, pid, instance } = await target(options, profile, cleanup, progress);
  const headers = profile.credential ?? {};
  const openapi = await fetch(`${base}/openapi/json`, { headers, signal: AbortSignal.timeout(10_000) })
    .then((r) => (r.ok ? r.json() : undefined))
    .catch(() => undefined);
  if (openapi === undefined) throw new Error(`${base}/openapi/json did not answer: is it a Breakline deployment?`);
  const problems = undocumented(profile, documentedOperations(openapi));
  if (problems.length) throw new Error(`the profile does not fit the target:\n  ${problems.join('\n  ')}`);

  await warmRoutes(base, profile, progress);
  const metricsText = await fetch(`${base}/metrics`, { headers, signal: AbortSignal.timeout(10_000) }).then((r) => (r.ok ? r.text() : ''), () => '');
  const first = fromMetrics(parseMetrics(metricsText));
  const limits: InstanceLimits = {
    cores: options.cores ?? (options.url && pid === undefined ? undefined : availableParallelism()),
    poolThreads: first.poolThreads,
    memoryBytes: options.memoryMb === undefined ? undefined : options.memoryMb * 2 ** 20,
    sseMaxConnections: first.sseMaxConnections,
    dbPoolMax: first.dbPoolMax,
    dbMaxConnections: options.dbMaxConnections,
    postgres: metricsText.includes('breakline_db_pool_max_connections{kind="postgres"}'),
  };
  if (!metricsText) progress(`${base}/metrics did not answer: CPU, pool and memory figures will be missing`);

  const url = new URL(base);
  const streams: Omit<StreamClientsConfig, 'count'> = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
    tls: url.protocol === 'https:',
    paths: [streamPath(profile.sse)],
    events: streamEvents(profile.sse, instance !== undefined),
    headers: profile.sse.auth ? profile.credential : undefined,
  };
  const fleet = new StreamFleet([...selfCommand(), 'capacity', '--role', 'stream-clients']);
  cleanup.add(() => fleet.close());
  const { steps, stopped } = await ramp({
    base,
    profile,
    reader: new ResourceReader(base, pid, headers),
    fleet,
    streams,
    publish: instance && ((rate) => instance.send(JSON.stringify({ publish: rate }))),
    steps: options.steps,
    stepSeconds: options.stepSeconds,
    p99Ms: options.p99Ms,
    deadline: performance.now() + options.timeLimitSeconds * 1000 - 15_000,
    progress,
  });
  return {
    target: options.url ?? 'local',
    startedAt,
    loadAverage: [round2(loadBefore), round2(loadavg()[0]!)],
    profile,
    steps,
    stopped,
    limits,
    plan: plan(steps, limits, options.target),
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
