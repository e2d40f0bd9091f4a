/**
 * @module cli/capacity/sweep
 * `breakline capacity --sweep`: how cost grows with the work, measured on a
 * local instance and printed as fitted lines (least squares, with R² and the
 * points), so an operator extrapolates from a slope rather than a guess:
 *
 * - streams: RSS and CPU against open streams (1/n … all of `--sse`, default
 *   10,000, with `--event-rate` events a second fanned out to every stream);
 * - requests: CPU and the event loop's CPU against requests a second (1/n …
 *   all of `--rps`, default 400, over the profile's mix, no streams).
 *
 * Each is one ramp (cli/capacity/ramp) that goes to the top unless errors
 * appear or the rate offered is not carried (its p99 bound is 10 s: the
 * sweep measures cost, not the knee). Scan time against universe size and
 * replay time against years are not swept yet (bench/scan, bench/replay
 * measure them from a checkout).
 */
import { loadavg } from 'node:os';
import { fitLine } from './model';
import type { CapacityOptions } from './options';
import { buildProfile, type Profile } from './profile';
import { ramp, type StepResult } from './ramp';
import { table } from './report';
import { ResourceReader } from './resources';
import { instanceEnv, startRole, type RoleProcess } from './local';
import { warmRoutes, streamEvents, streamPath, type Cleanup } from './run';
import { selfCommand } from './self';
import { StreamFleet } from './stream-fleet';

export interface ScalingLaw {
  what: string;
  x: string;
  y: string;
  intercept: number;
  slope: number;
  /** The slope in words, in the unit an operator plans with. */
  perUnit: string;
  r2: number;
  points: [number, number][];
}

export interface SweepResult {
  startedAt: string;
  loadAverage: [number, number];
  laws: ScalingLaw[];
  stopped: string[];
}

/** A law fitted over the steps, when at least two of them measured it. */
export function law(steps: readonly StepResult[], what: string, x: [string, (s: StepResult) => number | undefined], y: [string, (s: StepResult) => number | undefined], perUnit: (slope: number) => string): ScalingLaw | undefined {
  const points = steps.map((s) => [x[1](s), y[1](s)] as const).filter((p): p is [number, number] => p[0] !== undefined && p[1] !== undefined);
  const line = fitLine(
    points.map((p) => p[0]),
    points.map((p) => p[1]),
  );
  return line && { what, x: x[0], y: y[0], intercept: line.intercept, slope: line.slope, perUnit: perUnit(line.slope), r2: line.r2, points };
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
  const clients = options.sse ?? 10_000;
  const mix = buildProfile({ ...options, sse: 0 });
  if (!mix.ok) throw new Error(mix.error);
  progress('starting a local instance on the embedded defaults…');
  const instance = await startRole('instance', instanceEnv({ sseClients: clients, quoteIntervalMs: 1000, extra: { SSE_MAX_CONNECTIONS: String(clients + 100), ...options.env } }));
  cleanup.add(() => instance.stop());
  const laws: ScalingLaw[] = [];
  const stopped: string[] = [];
  const kb = (s: StepResult) => (s.rssBytes === undefined ? undefined : s.rssBytes / 1024);

  progress(`streams: ${clients} at the top, ${options.eventRate ?? 2} events/s to each`);
  const streamsProfile: Profile = { rps: 0, requests: [], sse: { clients, channels: ['breakouts.state_change'], symbols: [], auth: false }, eventRate: options.eventRate ?? 2, quoteIntervalMs: 1000 };
  const streams = await sweepRamp(instance, streamsProfile, options, deadline, cleanup, progress);
  stopped.push(`streams: ${streams.stopped}`);
  const open = (s: StepResult) => s.sse.clients;
  const streamWindow = (s: StepResult) => s.windows.streams;
  for (const found of [
    law(streams.steps, 'memory per stream', ['streams', open], ['RSS KB', kb], (b) => `${round(b)} KB a stream`),
    law(streams.steps, 'CPU per stream delivery', ['deliveries/s', (s) => streamWindow(s).sseDeliveries && streamWindow(s).sseDeliveries! / streamWindow(s).seconds], ['CPU cores', (s) => streamWindow(s).cpuCores], (b) => `${round(b * 1e6)} µs a delivery`),
    law(streams.steps, 'event loop per stream delivery', ['deliveries/s', (s) => streamWindow(s).sseDeliveries && streamWindow(s).sseDeliveries! / streamWindow(s).seconds], ['loop cores', (s) => streamWindow(s).loopCores], (b) => `${round(b * 1e6)} µs of the main thread a delivery`),
  ])
    if (found) laws.push(found);

  progress(`requests: ${mix.value.rps} req/s at the top over the profile's mix`);
  await warmRoutes(instance.url, mix.value, progress);
  const requests = await sweepRamp(instance, mix.value, options, deadline, cleanup, progress);
  stopped.push(`requests: ${requests.stopped}`);
  for (const found of [
    law(requests.steps, 'CPU per request', ['req/s', (s) => s.rps], ['CPU cores', (s) => s.windows.mixed.cpuCores], (b) => `${round(b * 1e6)} µs a request`),
    law(requests.steps, 'event loop per request', ['req/s', (s) => s.rps], ['loop cores', (s) => s.windows.mixed.loopCores], (b) => `${round(b * 1e6)} µs of the main thread a request (one core: ${round(1 / b)} req/s at most)`),
  ])
    if (found) laws.push(found);

  const result: SweepResult = { startedAt, loadAverage: [round(loadBefore), round(loadavg()[0]!)], laws, stopped };
  if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(`${formatSweep(result)}\n`);
  return 0;
}

export function formatSweep(result: SweepResult): string {
  return [
    `breakline capacity --sweep — ${result.startedAt}, load average ${result.loadAverage[0]} → ${result.loadAverage[1]} (1 min)`,
    '',
    table(result.laws.map((l) => ({ law: l.what, fit: `${l.y} = ${round(l.intercept)} + ${sig(l.slope)} × ${l.x}`, slope: l.perUnit, 'R²': round(l.r2, 3), points: l.points.length }))),
    '',
    ...result.stopped.map((s) => `Stopped: ${s}`),
  ].join('\n');
}

const round = (x: number, digits = 1) => (Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 10 ** digits) / 10 ** digits);
const sig = (x: number) => Number(x.toPrecision(3));
