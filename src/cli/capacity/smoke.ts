/**
 * @module cli/capacity/smoke
 * `breakline capacity --smoke`: the CI's guard against a gross slowdown of
 * the hot routes, measured as a ratio in one run so the machine's speed and
 * load cancel out. A local instance and a bare `Bun.serve` handler answering
 * the same bytes (cli/capacity/roles `bare`) take the same paced load in
 * short turns (a warm-up turn each, not counted, then instance, bare,
 * instance, bare, …), so a change in the machine's load lands on both; each
 * one's CPU per request is read from /proc over its turns. The ratio
 * instance ÷ bare is what the service costs beyond HTTP on this runtime; the
 * run fails when it is more than `SMOKE_TOLERANCE` times the ratio recorded
 * in the repository (`--baseline FILE`, written by `--record`), so noise
 * (tens of percent on a shared machine) cannot fail it but a 2× slowdown of
 * the service can. The bare handler starts while the instance boots (the
 * boot and its first daily scan are most of the run's time).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadRoutes } from './http-load';
import { instanceEnv, startRole, type RoleProcess } from './local';
import type { CapacityOptions } from './options';
import type { RequestSpec } from './profile';
import { table } from './report';
import { readProc } from './resources';
import type { Cleanup } from './run';

/** The hot routes: the ranked list, a quote, a chart, the health probe (README § HTTP hot paths). */
export const SMOKE_ROUTES = ['/api/breakouts', '/api/snapshot?symbol=AAPL', '/api/bars?symbol=AAPL&range=6mo', '/api/health'];
/** The ratio may grow to this multiple of the recorded one before the smoke fails. */
export const SMOKE_TOLERANCE = 1.5;
/**
 * Requests a second over the routes, seconds per turn and turns each: about
 * 1,800 requests counted per server (idle timers a few percent of the CPU
 * measured), in 11 s of load where 2 turns of 5 s at 200 req/s took 20 s
 * and counted the instance's first, unwarmed, turn.
 */
const RATE = 400;
const WARM_UP_SECONDS = 1;
const WINDOW_SECONDS = 1.5;
const ROUNDS = 3;
/** Connections are opened to carry the rate at answers this slow: on a loaded machine, enough that the rate offered is the rate carried. */
const SLOW_ANSWER_MS = 250;

export interface SmokeRecord {
  /** CPU µs per request of the instance ÷ of the bare handler. */
  ratio: number;
  recordedAt: string;
  loadAverage: number;
}

export interface SmokeResult {
  instanceUsPerRequest: number;
  bareUsPerRequest: number;
  ratio: number;
  recorded?: SmokeRecord;
  /** The most the ratio may be (recorded × tolerance). */
  limit?: number;
  passed: boolean;
  loadAverage: [number, number];
  windows: { server: 'instance' | 'bare'; requests: number; cpuSeconds: number }[];
}

/** Whether a ratio passes against the record (none recorded: nothing to fail). */
export function judge(ratio: number, recorded: SmokeRecord | undefined): { passed: boolean; limit?: number } {
  if (!recorded) return { passed: true };
  const limit = recorded.ratio * SMOKE_TOLERANCE;
  return { passed: ratio <= limit, limit };
}

/** One window of paced load on `server`; its requests answered and the CPU it spent meanwhile. */
async function window(server: RoleProcess, specs: RequestSpec[], seconds = WINDOW_SECONDS) {
  const before = readProc(server.pid).cpuSeconds!;
  const routes = await loadRoutes(server.url, specs, { rps: RATE, seconds, latencyMs: SLOW_ANSWER_MS });
  const cpuSeconds = readProc(server.pid).cpuSeconds! - before;
  const errors = routes.flatMap((r) => Object.entries(r.statuses).filter(([status]) => status !== '200').map(([status, n]) => `${r.label} ${status} ×${n}`));
  if (errors.length) throw new Error(`the smoke's routes must answer 200: ${errors.join(', ')}`);
  return { requests: routes.reduce((n, r) => n + r.requests, 0), cpuSeconds };
}

/** Resolves once every path answers 200 (the bare handler has read its routes); throws after `timeoutMs`. */
async function answering(base: string, paths: readonly string[], timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  for (const path of paths) {
    while ((await fetch(`${base}${path}`).then(async (r) => (await r.arrayBuffer(), r.status))) !== 200) {
      if (performance.now() > until) throw new Error(`the bare handler does not answer ${path}`);
      await Bun.sleep(20);
    }
  }
}

export async function runSmoke(options: CapacityOptions, cleanup: Cleanup, progress: (line: string) => void): Promise<number> {
  const loadBefore = loadavg()[0]!;
  progress('starting a local instance and a bare handler…');
  const [instance, bare] = await Promise.all([startRole('instance', instanceEnv({ sseClients: 0, quoteIntervalMs: 1000, extra: options.env })), startRole('bare', {}, undefined, 30_000)]);
  cleanup.add(() => instance.stop());
  cleanup.add(() => bare.stop());
  const routes: Record<string, { body: string; type: string }> = {};
  for (const path of SMOKE_ROUTES) {
    const response = await fetch(`${instance.url}${path}`, { signal: AbortSignal.timeout(60_000) });
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    routes[path] = { body: Buffer.from(await response.arrayBuffer()).toString('base64'), type: response.headers.get('content-type') ?? 'application/json' };
  }
  // The bodies go to the bare handler through a file named on its stdin (they outgrow a line a pipe writes at once).
  const answers = join(mkdtempSync(join(tmpdir(), 'breakline-smoke-')), 'routes.json');
  writeFileSync(answers, JSON.stringify({ routes }));
  cleanup.add(async () => rmSync(dirname(answers), { recursive: true, force: true }));
  bare.send(`@${answers}`);
  await answering(bare.url, SMOKE_ROUTES, 30_000);
  const specs: RequestSpec[] = SMOKE_ROUTES.map((path) => ({ label: path.split('?')[0]!, method: 'GET', paths: [path], weight: 1, auth: false }));
  const servers = [['instance', instance], ['bare', bare]] as const;
  for (const [name, server] of servers) {
    progress(`warm-up: ${name}, ${RATE} req/s for ${WARM_UP_SECONDS} s`);
    await window(server, specs, WARM_UP_SECONDS);
  }
  const windows: SmokeResult['windows'] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    progress(`round ${round}/${ROUNDS}: instance then bare, ${RATE} req/s for ${WINDOW_SECONDS} s each`);
    for (const [name, server] of servers) windows.push({ server: name, ...(await window(server, specs)) });
  }
  const perRequest = (server: 'instance' | 'bare') => {
    const mine = windows.filter((w) => w.server === server);
    return (mine.reduce((s, w) => s + w.cpuSeconds, 0) * 1e6) / Math.max(1, mine.reduce((n, w) => n + w.requests, 0));
  };
  const instanceUs = perRequest('instance');
  const bareUs = perRequest('bare');
  if (bareUs <= 0) throw new Error('the bare handler spent no CPU that /proc could see: no ratio can be made');
  const ratio = instanceUs / bareUs;
  const loadAverage: [number, number] = [round2(loadBefore), round2(loadavg()[0]!)];
  const file = options.baselineFile;
  const recorded = file && existsSync(file) && !options.record ? (JSON.parse(readFileSync(file, 'utf8')) as SmokeRecord) : undefined;
  const verdict = judge(ratio, recorded);
  const result: SmokeResult = { instanceUsPerRequest: round2(instanceUs), bareUsPerRequest: round2(bareUs), ratio: round2(ratio), recorded, ...verdict, loadAverage, windows };
  if (options.record) {
    if (!file) throw new Error('--record needs --baseline FILE to write');
    writeFileSync(file, `${JSON.stringify({ ratio: round2(ratio), recordedAt: new Date().toISOString(), loadAverage: loadAverage[1] } satisfies SmokeRecord, null, 2)}\n`);
    progress(`recorded ratio ${round2(ratio)} in ${file}`);
  }
  if (options.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    process.stdout.write(
      `${table([
        { server: 'instance', 'CPU µs/request': round2(instanceUs), requests: windows.filter((w) => w.server === 'instance').reduce((n, w) => n + w.requests, 0) },
        { server: 'bare handler', 'CPU µs/request': round2(bareUs), requests: windows.filter((w) => w.server === 'bare').reduce((n, w) => n + w.requests, 0) },
      ])}\n`,
    );
    process.stdout.write(
      `ratio ${round2(ratio)}${recorded ? ` (recorded ${recorded.ratio} on ${recorded.recordedAt.slice(0, 10)}; limit ${round2(verdict.limit!)})` : file && !options.record ? ` (no record at ${file}: nothing to compare)` : ''}; load average ${loadAverage[0]} → ${loadAverage[1]}\n`,
    );
    process.stdout.write(verdict.passed ? 'capacity smoke: ok\n' : `capacity smoke: REGRESSION — the hot routes cost ${round2(ratio)}× the bare handler, more than ${SMOKE_TOLERANCE}× the recorded ${recorded!.ratio}\n`);
  }
  return verdict.passed ? 0 : 1;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
