/**
 * @module cli/capacity/sweep
 * `breakline capacity --sweep`: how cost grows with the work, measured on
 * this machine and printed as fitted lines (least squares, with R² and the
 * points: cli/capacity/laws), so an operator extrapolates from a slope rather
 * than a guess. Its dimensions (`--dimensions`, default all):
 *
 * - streams: RSS and CPU against open streams (1/n … all of `--sse`, default
 *   10,000, with `--event-rate` events a second fanned out to every stream);
 * - requests: CPU and the event loop's CPU against requests a second (1/n …
 *   all of `--rps`, default 400, over the profile's mix, no streams);
 * - cores: the most requests a second the profile's mix gets answered by an
 *   instance on 1 … N cores (`--core-counts`; taskset, POOL_SIZE = cores);
 * - universe: the daily scan's time against universe size, and
 *   years: a replay's time against years of history (cli/capacity/work-sweep).
 *
 * The streams and requests ramps (cli/capacity/ramp) go to the top unless
 * errors appear or the rate offered is not carried (their p99 bound is 10 s:
 * the sweep measures cost, not the knee).
 */
import { loadavg } from 'node:os';
import { saturate } from './http-load';
import { formatSweep, lawOf, round, type ScalingLaw, type SweepResult } from './laws';
import type { CapacityOptions } from './options';
import { buildProfile, type Profile } from './profile';
import { ramp, type StepResult } from './ramp';
import { ResourceReader } from './resources';
import { instanceEnv, startRole, type RoleProcess } from './local';
import { warmRoutes, streamEvents, streamPath, type Cleanup } from './run';
import { selfCommand } from './self';
import { StreamFleet } from './stream-fleet';
import { sweepWork } from './work-sweep';

/** A law fitted over the steps of a ramp, when at least two of them measured it. */
export function law(steps: readonly StepResult[], what: string, x: [string, (s: StepResult) => number | undefined], y: [string, (s: StepResult) => number | undefined], perUnit: (slope: number) => string): ScalingLaw | undefined {
  const points = steps.map((s) => [x[1](s), y[1](s)] as const).filter((p): p is [number, number] => p[0] !== undefined && p[1] !== undefined);
  return lawOf(points, what, x[0], y[0], perUnit);
}

const SWEEP_P99_MS = 10_000;

async function sweepRamp(instance: RoleProcess, profile: Profile, options: CapacityOptions, deadline: number, cleanup: Cleanup, progress: (line: string) => void) {
  const url = new URL(instance.url);
  const fleet = new StreamFleet([...selfCommand(), 'capacity', '--role', 'stream-clients']);
  cleanup.add(() => fleet.close());
  const result = await ramp({
    base: instance.url,
    profile,
    reader: new ResourceReader(instance.url, instance.pid),
    fleet,
    streams: { host: url.hostname, port: Number(url.port), paths: [streamPath(profile.sse)], events: streamEvents(profile.sse, true) },
    publish: (rate) => instance.send(JSON.stringify({ publish: rate })),
    steps: options.steps,
    stepSeconds: options.stepSeconds,
    p99Ms: SWEEP_P99_MS,
    deadline,
    progress,
  });
  await fleet.close();
  instance.send(JSON.stringify({ publish: 0 }));
  return result;
}

export async function runSweep(options: CapacityOptions, cleanup: Cleanup, progress: (line: string) => void): Promise<number> {
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg()[0]!;
  const deadline = performance.now() + options.timeLimitSeconds * 1000 - 15_000;
  const mix = buildProfile({ ...options, sse: 0 });
  if (!mix.ok) throw new Error(mix.error);
  const laws: ScalingLaw[] = [];
  const stopped: string[] = [];
  const wanted = new Set(options.sweep.dimensions);
  if (wanted.has('streams') || wanted.has('requests')) {
    const found = await sweepInstance(options, mix.value, wanted, deadline, cleanup, progress);
    laws.push(...found.laws);
    stopped.push(...found.stopped);
  }
  if (wanted.has('cores')) {
    const found = await sweepCores(options, mix.value, deadline, cleanup, progress);
    if (found.law) laws.push(found.law);
    stopped.push(found.stopped);
  }
  if (wanted.has('universe') || wanted.has('years')) {
    if (wanted.has('universe')) progress(`universe: a daily scan of ${options.sweep.universeSizes.join(', ')} stocks`);
    if (wanted.has('years')) progress(`years: a replay of ${options.sweep.replaySymbols} stocks over ${options.sweep.years.join(', ')} years`);
    const found = await sweepWork(
      {
        universeSizes: wanted.has('universe') ? options.sweep.universeSizes : [],
        years: wanted.has('years') ? options.sweep.years : [],
        replaySymbols: options.sweep.replaySymbols,
        poolThreads: options.env.POOL_SIZE ? Number(options.env.POOL_SIZE) : undefined,
        deadline,
      },
      progress,
    );
    laws.push(...found.laws);
    stopped.push(...found.stopped);
  }
  const result: SweepResult = { startedAt, loadAverage: [round(loadBefore), round(loadavg()[0]!)], laws, stopped };
  if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(`${formatSweep(result)}\n`);
  return 0;
}

/** Streams and requests, ramped on one local instance. */
async function sweepInstance(options: CapacityOptions, mix: Profile, wanted: Set<string>, deadline: number, cleanup: Cleanup, progress: (line: string) => void) {
  const clients = options.sse ?? 10_000;
  const laws: ScalingLaw[] = [];
  const stopped: string[] = [];
  progress('starting a local instance on the embedded defaults…');
  const instance = await startRole('instance', instanceEnv({ sseClients: clients, quoteIntervalMs: 1000, extra: { SSE_MAX_CONNECTIONS: String(clients + 100), ...options.env } }));
  cleanup.add(() => instance.stop());
  const kb = (s: StepResult) => (s.rssBytes === undefined ? undefined : s.rssBytes / 1024);

  if (wanted.has('streams')) {
    progress(`streams: ${clients} at the top, ${options.eventRate ?? 2} events/s to each`);
    const streamsProfile: Profile = { rps: 0, requests: [], sse: { clients, channels: ['breakouts.state_change'], symbols: [], auth: false }, eventRate: options.eventRate ?? 2, quoteIntervalMs: 1000 };
    const streams = await sweepRamp(instance, streamsProfile, options, deadline, cleanup, progress);
    stopped.push(`streams: ${streams.stopped}`);
    const open = (s: StepResult) => s.sse.clients;
    const streamWindow = (s: StepResult) => s.windows.streams;
    const deliveries = (s: StepResult) => streamWindow(s).sseDeliveries && streamWindow(s).sseDeliveries! / streamWindow(s).seconds;
    laws.push(
      ...[
        law(streams.steps, 'memory per stream', ['streams', open], ['RSS KB', kb], (b) => `${round(b)} KB a stream`),
        law(streams.steps, 'CPU per stream delivery', ['deliveries/s', deliveries], ['CPU cores', (s) => streamWindow(s).cpuCores], (b) => `${round(b * 1e6)} µs a delivery`),
        law(streams.steps, 'event loop per stream delivery', ['deliveries/s', deliveries], ['loop cores', (s) => streamWindow(s).loopCores], (b) => `${round(b * 1e6)} µs of the main thread a delivery`),
      ].filter((l): l is ScalingLaw => l !== undefined),
    );
  }
  if (wanted.has('requests')) {
    progress(`requests: ${mix.rps} req/s at the top over the profile's mix`);
    await warmRoutes(instance.url, mix, progress);
    const requests = await sweepRamp(instance, mix, options, deadline, cleanup, progress);
    stopped.push(`requests: ${requests.stopped}`);
    laws.push(
      ...[
        law(requests.steps, 'CPU per request', ['req/s', (s) => s.rps], ['CPU cores', (s) => s.windows.mixed.cpuCores], (b) => `${round(b * 1e6)} µs a request`),
        law(requests.steps, 'event loop per request', ['req/s', (s) => s.rps], ['loop cores', (s) => s.windows.mixed.loopCores], (b) => `${round(b * 1e6)} µs of the main thread a request (one core: ${round(1 / b)} req/s at most)`),
      ].filter((l): l is ScalingLaw => l !== undefined),
    );
  }
  await instance.stop();
  return { laws, stopped };
}

/** Connections that keep an instance busy without queueing seconds of requests on a few cores. */
const SATURATING_CONNECTIONS = 32;

/**
 * Requests a second against cores: for each count, an instance pinned to
 * that many cores (POOL_SIZE the same) takes the profile's mix on
 * `SATURATING_CONNECTIONS` closed-loop connections for `--step-seconds`.
 * The instances boot together (a boot is most of the time; an instance
 * waiting its turn is idle) and are loaded one at a time. The load generator
 * runs in this process, on any core.
 */
async function sweepCores(options: CapacityOptions, mix: Profile, deadline: number, cleanup: Cleanup, progress: (line: string) => void): Promise<{ law?: ScalingLaw; stopped: string }> {
  const counts = options.sweep.coreCounts;
  progress(`cores: instances on ${counts.join(', ')} cores (POOL_SIZE the same), booting together…`);
  const instances = await Promise.all(
    counts.map(async (cores) => {
      const instance = await startRole('instance', instanceEnv({ sseClients: 0, quoteIntervalMs: 1000, extra: { POOL_SIZE: String(cores), ...options.env } }), undefined, 180_000, cores);
      cleanup.add(() => instance.stop());
      return instance;
    }),
  );
  const points: [number, number][] = [];
  try {
    for (const [i, cores] of counts.entries()) {
      const instance = instances[i]!;
      if (performance.now() > deadline) return { law: coresLaw(points), stopped: `cores: time limit before ${cores} cores` };
      await warmRoutes(instance.url, mix, progress);
      const carried = await saturate(instance.url, mix.requests, { connections: SATURATING_CONNECTIONS, seconds: options.stepSeconds, credential: mix.credential });
      progress(`cores: ${cores}: ${Math.round(carried.rps)} req/s, worst p99 ${carried.p99Ms} ms, ${carried.errors} errors`);
      await instance.stop();
      if (carried.errors > 0) return { law: coresLaw(points), stopped: `cores: ${carried.errors} errors on ${cores} cores` };
      points.push([cores, carried.rps]);
    }
  } finally {
    await Promise.all(instances.map((instance) => instance.stop()));
  }
  return { law: coresLaw(points), stopped: 'cores: every count measured' };
}

const coresLaw = (points: [number, number][]) => lawOf(points, 'requests per core', 'cores', 'req/s', (b) => `${round(b)} req/s a core more`);

