/**
 * @module cli/capacity/options
 * The command line of `breakline capacity`: where to point the load, the ramp,
 * the target to plan for and the machine it runs on. The load profile (what
 * the requests and streams are) is cli/capacity/profile's; this module reads
 * the flags that build one and everything else.
 *
 * @example
 * capacityArguments(['--target', 'rps=3000,sse=20000,p99=50ms']);
 * // => { ok: true, value: { target: { rps: 3000, sse: 20000, p99Ms: 50 }, … } }
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';

export const USAGE = 'usage: breakline capacity [--url URL [--allow-remote]] [--profile FILE | --route [W:]PATH … --graphql [W:]QUERY … --rps N --sse N …] [--target "rps=3000,sse=20000,p99=50ms"] [--json] | --sweep [--dimensions A,B] | --smoke';

/** What the plan is for: requests a second, open streams, and the p99 every route must keep. */
export interface Target {
  rps: number;
  sse: number;
  p99Ms: number;
}

export interface CapacityOptions {
  mode: 'run' | 'sweep' | 'smoke';
  /** The deployment under load; undefined: a local instance this command starts. */
  url?: string;
  allowRemote: boolean;
  /** A running local server's process id, to read its CPU and memory from /proc. */
  pid?: number;
  profileFile?: string;
  /** Flags that build (or override) the profile. */
  routes: string[];
  graphql: string[];
  rps?: number;
  sse?: number;
  channels?: string[];
  symbols?: string[];
  eventRate?: number;
  quoteIntervalMs?: number;
  apiKey?: string;
  session?: string;
  target?: Target;
  /** The p99 that ends the ramp (the target's, else 50 ms). */
  p99Ms: number;
  steps: number;
  stepSeconds: number;
  /** The whole run's bound, seconds. */
  timeLimitSeconds: number;
  /** Cores of one instance (the model's CPU capacity); default: this machine's for a local instance. */
  cores?: number;
  /** Memory one instance may use, MB (unset: memory is reported, not a limit). */
  memoryMb?: number;
  /** Connections the database accepts (PostgreSQL's max_connections, default 100). */
  dbMaxConnections: number;
  /** Settings for the local instance (`--env NAME=VALUE`). */
  env: Record<string, string>;
  json: boolean;
  /** Smoke: the recorded ratios to compare with, and whether to write this run's as the new record. */
  baselineFile?: string;
  record: boolean;
  /** What `--sweep` measures and over which points. */
  sweep: SweepOptions;
}

/** The sweep's dimensions (cli/capacity/sweep). */
export const SWEEP_DIMENSIONS = ['streams', 'requests', 'cores', 'universe', 'years'] as const;
export type SweepDimension = (typeof SWEEP_DIMENSIONS)[number];

export interface SweepOptions {
  dimensions: SweepDimension[];
  /** Instances' cores (and POOL_SIZE) for the cores law. */
  coreCounts: number[];
  /** Stocks per scan for the universe law. */
  universeSizes: number[];
  /** Years of history per replay for the years law, over `replaySymbols` stocks. */
  years: number[];
  replaySymbols: number;
}

export const SWEEP_DEFAULTS = { universeSizes: [100, 500, 1000, 1500, 2000], years: [1, 2, 3, 4], replaySymbols: 50 } as const;

/** The sweep's flags: `--dimensions a,b`, and the points of each law as comma lists of positive numbers. */
export function sweepArguments(values: { dimensions?: string; 'core-counts'?: string; 'universe-sizes'?: string; years?: string; 'replay-symbols'?: string }, machineCores: number): Parsed<SweepOptions> {
  const dimensions = values.dimensions === undefined ? [...SWEEP_DIMENSIONS] : values.dimensions.split(',').map((d) => d.trim());
  const unknown = dimensions.filter((d) => !(SWEEP_DIMENSIONS as readonly string[]).includes(d));
  if (unknown.length || dimensions.length === 0) return { ok: false, error: `--dimensions takes some of ${SWEEP_DIMENSIONS.join(',')}, got ${values.dimensions}` };
  const points = (name: string, text: string | undefined, fallback: readonly number[], integer: boolean): Parsed<number[]> => {
    if (text === undefined) return { ok: true, value: [...fallback] };
    const list = text.split(',').map((p) => Number(p.trim()));
    if (list.length < 2 || list.some((n) => !Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))) return { ok: false, error: `--${name} takes two or more ${integer ? 'whole ' : ''}numbers above 0, comma-separated, got ${text}` };
    return { ok: true, value: list };
  };
  const coreCounts = points('core-counts', values['core-counts'], Array.from({ length: Math.max(2, Math.min(4, machineCores)) }, (_, i) => i + 1), true);
  if (!coreCounts.ok) return coreCounts;
  if (coreCounts.value.some((c) => c > machineCores)) return { ok: false, error: `--core-counts: this machine has ${machineCores} cores` };
  const universeSizes = points('universe-sizes', values['universe-sizes'], SWEEP_DEFAULTS.universeSizes, true);
  if (!universeSizes.ok) return universeSizes;
  // Whole years: a replay's range is the last N calendar years (jobs/replay/boot `recentRange`).
  const years = points('years', values.years, SWEEP_DEFAULTS.years, true);
  if (!years.ok) return years;
  const replaySymbols = values['replay-symbols'] === undefined ? SWEEP_DEFAULTS.replaySymbols : Number(values['replay-symbols']);
  if (!Number.isInteger(replaySymbols) || replaySymbols < 1) return { ok: false, error: `--replay-symbols must be a whole number above 0, got ${values['replay-symbols']}` };
  return { ok: true, value: { dimensions: dimensions as SweepDimension[], coreCounts: coreCounts.value, universeSizes: universeSizes.value, years: years.value, replaySymbols } };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** `"rps=3000,sse=20000,p99=50ms"` (any of the three; p99 in ms or s). */
export function parseTarget(text: string): Parsed<Target> {
  const target: Target = { rps: 0, sse: 0, p99Ms: 50 };
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^(rps|sse|p99)\s*=\s*([\d.]+)\s*(ms|s)?$/.exec(part);
    if (!match) return { ok: false, error: `--target: cannot read '${part}' (expected rps=N, sse=N, p99=Nms)` };
    const value = Number(match[2]);
    if (!Number.isFinite(value) || value < 0) return { ok: false, error: `--target: '${part}' is not a non-negative number` };
    if (match[1] === 'p99') target.p99Ms = match[3] === 's' ? value * 1000 : value;
    else if (match[3]) return { ok: false, error: `--target: ${match[1]} takes no unit` };
    else target[match[1] as 'rps' | 'sse'] = value;
  }
  if (target.rps === 0 && target.sse === 0) return { ok: false, error: '--target needs rps or sse (e.g. rps=3000,sse=20000,p99=50ms)' };
  if (target.p99Ms <= 0) return { ok: false, error: '--target: p99 must be above 0' };
  return { ok: true, value: target };
}

/** `"50ms"`, `"0.05s"` or `"50"` (ms). */
export function parseDurationMs(text: string): number | undefined {
  const match = /^([\d.]+)\s*(ms|s)?$/.exec(text.trim());
  if (!match) return undefined;
  const value = Number(match[1]) * (match[2] === 's' ? 1000 : 1);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Whether a URL's host is this machine's loopback (127.0.0.0/8, ::1, localhost). */
export function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

function positive(name: string, value: string | undefined, integer = true): Parsed<number | undefined> {
  if (value === undefined) return { ok: true, value: undefined };
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) return { ok: false, error: `--${name} must be a ${integer ? 'whole ' : ''}number ≥ 0, got ${value}` };
  return { ok: true, value: n };
}

export function capacityArguments(args: string[]): Parsed<CapacityOptions> {
  let values;
  try {
    values = parseArgs({
      args,
      options: {
        url: { type: 'string' },
        'allow-remote': { type: 'boolean', default: false },
        pid: { type: 'string' },
        profile: { type: 'string' },
        route: { type: 'string', multiple: true },
        graphql: { type: 'string', multiple: true },
        rps: { type: 'string' },
        sse: { type: 'string' },
        channels: { type: 'string' },
        symbols: { type: 'string' },
        'event-rate': { type: 'string' },
        'quote-interval': { type: 'string' },
        'api-key': { type: 'string' },
        session: { type: 'string' },
        target: { type: 'string' },
        p99: { type: 'string' },
        steps: { type: 'string', default: '6' },
        'step-seconds': { type: 'string', default: '10' },
        'time-limit': { type: 'string', default: '300' },
        cores: { type: 'string' },
        'memory-mb': { type: 'string' },
        'db-max-connections': { type: 'string', default: '100' },
        env: { type: 'string', multiple: true },
        json: { type: 'boolean', default: false },
        sweep: { type: 'boolean', default: false },
        smoke: { type: 'boolean', default: false },
        baseline: { type: 'string' },
        record: { type: 'boolean', default: false },
        dimensions: { type: 'string' },
        'core-counts': { type: 'string' },
        'universe-sizes': { type: 'string' },
        years: { type: 'string' },
        'replay-symbols': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  if (values.sweep && values.smoke) return { ok: false, error: 'give --sweep or --smoke, not both' };
  if (values.url !== undefined) {
    let url: URL;
    try {
      url = new URL(values.url);
    } catch {
      return { ok: false, error: `--url is not a URL: ${values.url}` };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: '--url must be http:// or https://' };
    if (!isLoopback(url) && !values['allow-remote']) return { ok: false, error: `--url ${url.host} is not this machine's loopback: load it only if it is yours to load, with --allow-remote` };
    if (values.sweep || values.smoke) return { ok: false, error: '--sweep and --smoke measure local instances they start; they take no --url' };
  }
  const numbers: Record<string, number | undefined> = {};
  for (const [name, integer] of [['pid', true], ['rps', false], ['sse', true], ['event-rate', false], ['quote-interval', true], ['steps', true], ['step-seconds', false], ['time-limit', false], ['cores', false], ['memory-mb', false], ['db-max-connections', true]] as const) {
    const parsed = positive(name, values[name], integer);
    if (!parsed.ok) return parsed;
    numbers[name] = parsed.value;
  }
  if (numbers.pid !== undefined && values.url === undefined) return { ok: false, error: '--pid names the process of the server at --url' };
  if (!numbers.steps || numbers.steps > 50) return { ok: false, error: '--steps must be 1..50' };
  if (!numbers['step-seconds'] || numbers['step-seconds'] < 1) return { ok: false, error: '--step-seconds must be at least 1' };
  if (!numbers['time-limit'] || numbers['time-limit'] < 10) return { ok: false, error: '--time-limit must be at least 10 (seconds)' };
  let target: Target | undefined;
  if (values.target !== undefined) {
    const parsed = parseTarget(values.target);
    if (!parsed.ok) return parsed;
    target = parsed.value;
  }
  let p99Ms = target?.p99Ms ?? 50;
  if (values.p99 !== undefined) {
    const ms = parseDurationMs(values.p99);
    if (ms === undefined) return { ok: false, error: `--p99 must be a duration like 50ms, got ${values.p99}` };
    p99Ms = ms;
  }
  const env: Record<string, string> = {};
  for (const pair of values.env ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) return { ok: false, error: `--env takes NAME=VALUE, got ${pair}` };
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  if (Object.keys(env).length && values.url !== undefined) return { ok: false, error: '--env configures the local instance; a deployment at --url has its own settings' };
  const sweep = sweepArguments(values, availableParallelism());
  if (!sweep.ok) return sweep;
  const list = (text: string | undefined) => (text === undefined ? undefined : text.split(',').map((s) => s.trim()).filter(Boolean));
  return {
    ok: true,
    value: {
      mode: values.sweep ? 'sweep' : values.smoke ? 'smoke' : 'run',
      url: values.url?.replace(/\/+$/, ''),
      allowRemote: values['allow-remote'] ?? false,
      pid: numbers.pid,
      profileFile: values.profile,
      routes: values.route ?? [],
      graphql: values.graphql ?? [],
      rps: numbers.rps,
      sse: numbers.sse,
      channels: list(values.channels),
      symbols: list(values.symbols)?.map((s) => s.toUpperCase()),
      eventRate: numbers['event-rate'],
      quoteIntervalMs: numbers['quote-interval'],
      apiKey: values['api-key'],
      session: values.session,
      target,
      p99Ms,
      steps: numbers.steps,
      stepSeconds: numbers['step-seconds'],
      timeLimitSeconds: numbers['time-limit'],
      cores: numbers.cores,
      memoryMb: numbers['memory-mb'],
      dbMaxConnections: numbers['db-max-connections'] ?? 100,
      env,
      json: values.json ?? false,
      baselineFile: values.baseline,
      record: values.record ?? false,
      sweep: sweep.value,
    },
  };
}
