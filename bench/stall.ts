/**
 * bench/stall: no single request may stall the server (issues 12, 27). For
 * every documented GET route (the served OpenAPI document's, each required
 * parameter filled, plus the `source=replay`, `asOf` and largest-page `limit`
 * variants), the worst
 * `GET /livez` round trip while the route is called cold, 5 callers at once,
 * probing every 50 ms — on a real server process on the embedded defaults
 * from an empty STATE_DIR (quotas raised so nothing is refused):
 *
 * - `during`: right after ready, while the first start's boot replay runs;
 * - `after`: once it is done, on the server started again (every cache cold).
 *
 * Before each route the server is left to settle (3 quick probes in a row),
 * so a route is charged only for what it did. A caller gives up after
 * `--route-timeout` seconds (60); the table says so (`>60`). Beside it, the
 * quotes of a `/api/stream` subscriber (AAPL, MSFT) over each phase: the
 * longest gap between two quotes and the latest quote's age on arrival (one
 * tick is SSE_QUOTE_INTERVAL_MS, 1 s; the synthetic market quotes during its
 * sessions only). And the write phase, first in each phase: a journal entry
 * created (`POST /api/journal/entries`) and a GraphQL query of the journal,
 * 5 times each one after the other: how long each waited (median, slowest)
 * while the replay writes its ledger.
 *
 * `--tree name=dir` (repeatable) measures other checkouts in the same run,
 * one after the other (each its own server and STATE_DIR), e.g. main exported
 * with `git archive main | tar -x -C /tmp/main`; the table puts the trees
 * side by side. `--smoke`: a few routes, `during` only, and no waiting for
 * the replay to end. `--only PATH` (repeatable) measures only routes whose
 * path starts so. `--seeded`: instead of both phases, the Transparency
 * and scorecard routes over the stall guard's seeded ledgers (a replay of
 * 5,000 signals, 1,500 live), cold on a restart without a boot replay.
 * Beside each worst `/livez`, the longest stretch the server's main thread
 * worked without yielding (the most CPU it spent while one probe waited: on
 * a busy machine a probe also waits for a core, which this does not count).
 * `--dump DIR`: each tree's bodies written there (stamps removed), to diff.
 * `--cpu-prof DIR`: each server writes a CPU profile into DIR on exit (bun
 * --cpu-prof) and, beside it, each stretch its main thread worked over 10 ms
 * between two turns of its event loop (bench/loop-stretches), and each
 * route's window (epoch ms) is printed to read them by.
 * Prints; asserts nothing. The load average is printed with
 * the table: on a shared machine every figure moves with it.
 *
 *   bun run bench/stall.ts --tree main=/tmp/main
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PAGE_LIMIT_MAX } from '../src/pagination';
import { seedLedgers } from '../test/helpers/ledger-seed';
import { probeWhile } from '../test/helpers/livez-probe';
import { printTable, smoke } from './lib';

const ROOT = resolve(import.meta.dir, '..');
const CALLERS = 5;
const seeded = process.argv.includes('--seeded');
/** `--cpu-prof DIR`: each server writes a CPU profile there on exit (bun --cpu-prof), each route's window printed to read it by. */
const cpuProfDir = process.argv.includes('--cpu-prof') ? resolve(process.argv[process.argv.indexOf('--cpu-prof') + 1] ?? 'cpu-prof') : undefined;

function flag(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === name && process.argv[i + 1] ? [process.argv[i + 1]!] : []));
}

/** A server process of one tree, its log lines as they come. */
interface Server {
  base: string;
  pid: number;
  logs: Record<string, unknown>[];
  stop(): Promise<number>;
}

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** `breakline serve` from `root` on the embedded defaults over `stateDir`, ready. */
async function startServer(root: string, stateDir: string, extraEnv: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const profile = cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`, '--cpu-prof-interval=250', `--preload=${join(ROOT, 'bench/loop-stretches.ts')}`] : [];
  const proc = Bun.spawn([process.execPath, ...profile, 'run', join(root, 'src/index.ts'), 'serve'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      STATE_DIR: stateDir,
      LOG_LEVEL: 'info',
      RATE_LIMIT_QUOTA: '1000000000',
      RATE_LIMIT_COSTLY_QUOTA: '1000000000',
      EXPLAIN_RATE_LIMIT_QUOTA: '1000000000',
      ...(cpuProfDir ? { BENCH_STALL_STRETCHES_DIR: cpuProfDir } : {}),
      ...extraEnv,
    },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const logs: Record<string, unknown>[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of proc.stderr) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.includes('"msg":"request"')) continue;
        try {
          logs.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          logs.push({ msg: line });
        }
      }
    }
  })();
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server from ${root} exited with ${proc.exitCode}`);
    if (await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false)) break;
    await Bun.sleep(250);
  }
  return {
    base,
    pid: proc.pid,
    logs,
    async stop() {
      const began = performance.now();
      proc.kill('SIGTERM');
      const exited = await Promise.race([proc.exited.then(() => true), Bun.sleep(60_000).then(() => false)]);
      if (!exited) proc.kill('SIGKILL');
      await proc.exited;
      return performance.now() - began;
    },
  };
}

/** A session token for the routes that need one (`breakline token mint`, the tree's own). */
async function sessionToken(root: string, stateDir: string): Promise<string> {
  const proc = Bun.spawn([process.execPath, 'run', join(root, 'src/index.ts'), 'token', 'mint', '--user', 'bench', '--tier', 'enterprise'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', STATE_DIR: stateDir, LOG_LEVEL: 'error' },
    stdout: 'pipe',
    stderr: 'ignore',
  });
  return (await new Response(proc.stdout).text()).trim();
}

/** An example value for a required parameter, by name. */
const EXAMPLES: Record<string, string> = { symbol: 'AAPL', trigger: '200', target: '220', id: 'missing', month: '' };

/** Every documented GET route as a URL path a caller would send, with its cost variants. */
async function documentedRoutes(base: string, month: string): Promise<{ path: string; session: boolean; stream: boolean }[]> {
  type Param = { name: string; in: string; required?: boolean; schema?: { maximum?: number; enum?: string[]; anyOf?: { const?: string; enum?: string[] }[] } };
  const doc = (await (await fetch(`${base}/openapi/json`)).json()) as { paths: Record<string, { get?: { parameters?: Param[]; security?: unknown[]; responses?: Record<string, { content?: Record<string, unknown> }> } }> };
  const routes: { path: string; session: boolean; stream: boolean }[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    const get = item.get;
    if (!get) continue;
    const params = get.parameters ?? [];
    const value = (name: string) => (name === 'month' ? month : (EXAMPLES[name] ?? 'x'));
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
    const query = params.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${encodeURIComponent(value(p.name))}`);
    const session = (get.security ?? []).length > 0;
    const stream = Object.keys(get.responses?.['200']?.content ?? {}).includes('text/event-stream');
    const url = (extra: string[]) => (query.length + extra.length ? `${path}?${[...query, ...extra].join('&')}` : path);
    routes.push({ path: url([]), session, stream });
    const names = new Set(params.map((p) => p.name));
    if (names.has('source')) routes.push({ path: url(['source=replay']), session, stream });
    if (names.has('asOf')) routes.push({ path: url([`asOf=${month}-15`]), session, stream });
    // The largest page a caller may ask for: its schema's maximum, else the envelope's clamp (pagination's PAGE_LIMIT_MAX).
    const limit = params.find((p) => p.name === 'limit' && p.in === 'query');
    if (limit) routes.push({ path: url([`limit=${limit.schema?.maximum ?? PAGE_LIMIT_MAX}`]), session, stream });
  }
  return routes;
}

/** `--seeded`: the body each tree answered each route with (its first caller's), compared across trees. */
const bodies = new Map<string, Map<string, string>>();

/** One cold call of a route: its status, or `timeout` / `error`. A stream is read to its first bytes, then closed. */
async function call(base: string, route: { path: string; session: boolean; stream: boolean }, token: string, timeoutMs: number, body?: (text: string) => void): Promise<string> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(`${base}${route.path}`, { signal, headers: route.session ? { cookie: `__session=${token}` } : {} });
    if (route.stream && response.body) {
      const reader = response.body.getReader();
      await reader.read();
      await reader.cancel();
    } else if (body) body(await response.text());
    else await response.arrayBuffer();
    return String(response.status);
  } catch (error) {
    return signal.aborted ? 'timeout' : `error`;
  }
}

/** Waits until `/livez` answers in under 50 ms three times in a row (the server is idle again). */
async function settle(base: string): Promise<void> {
  for (let quick = 0, tries = 0; quick < 3 && tries < 1200; tries++) {
    const began = performance.now();
    await fetch(`${base}/livez`).then((r) => r.arrayBuffer());
    quick = performance.now() - began < 50 ? quick + 1 : 0;
    await Bun.sleep(50);
  }
}

/** Quote arrivals on a stream, for as long as it is open. */
function watchQuotes(base: string) {
  const controller = new AbortController();
  const arrivals: { at: number }[] = [];
  void (async () => {
    try {
      const response = await fetch(`${base}/api/stream?channels=&symbols=AAPL,MSFT`, { signal: controller.signal });
      const decoder = new TextDecoder();
      let buffered = '';
      for await (const chunk of response.body!) {
        buffered += decoder.decode(chunk, { stream: true });
        for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          if (!frame.includes('event: quote')) continue;
          arrivals.push({ at: Date.now() });
        }
      }
    } catch {
      // closed by stop()
    }
  })();
  return {
    stop() {
      controller.abort();
      // Outside the synthetic market's sessions the quote does not move: a stream gets it once, and no gap means anything.
      if (arrivals.length < 3) return { quotes: arrivals.length, 'max gap s': '- (no session)' };
      let gap = 0;
      for (let i = 1; i < arrivals.length; i++) gap = Math.max(gap, arrivals[i]!.at - arrivals[i - 1]!.at);
      return { quotes: arrivals.length, 'max gap s': (gap / 1000).toFixed(1) };
    },
  };
}

interface Measured {
  worstMs: number;
  /** The most CPU the server's main thread spent while one probe waited (livez-probe's worstCpuMs): its longest stretch without yielding. */
  worstCpuMs: number;
  /** Probes late while the server's main thread worked past 100 ms (test/helpers/livez-probe, given its pid). */
  late: number;
  slowestS: string;
  statuses: string;
  replaying: boolean;
}

async function measureRoutes(server: Server, routes: { path: string; session: boolean; stream: boolean }[], token: string, timeoutMs: number, replaying: () => boolean, tree?: string): Promise<Map<string, Measured>> {
  const out = new Map<string, Measured>();
  const keep = (path: string) => (text: string) => {
    if (!tree) return;
    if (!bodies.has(path)) bodies.set(path, new Map());
    if (!bodies.get(path)!.has(tree)) bodies.get(path)!.set(tree, text);
  };
  for (const route of routes) {
    await settle(server.base);
    const running = replaying();
    const began = performance.now();
    const window = Date.now();
    const report = await probeWhile(server.base, () => Promise.all(Array.from({ length: CALLERS }, () => call(server.base, route, token, timeoutMs, keep(route.path)))), { pid: server.pid });
    const slowest = (performance.now() - began) / 1000;
    if (cpuProfDir) console.error(`cpu-prof window pid ${server.pid} ${route.path}: ${window}–${Date.now()} (epoch ms)`);
    const counts = new Map<string, number>();
    for (const s of report.result) counts.set(s, (counts.get(s) ?? 0) + 1);
    out.set(route.path, {
      worstMs: Math.round(report.worstMs),
      worstCpuMs: Math.round(report.worstCpuMs),
      late: report.late.length,
      slowestS: report.result.includes('timeout') ? `>${timeoutMs / 1000}` : slowest.toFixed(2),
      statuses: [...counts].map(([s, n]) => (n === CALLERS ? s : `${s}×${n}`)).join(' '),
      replaying: running,
    });
  }
  return out;
}

/** The writes and the GraphQL read measured in each phase, each sent `WRITES` times, one after the other. */
const WRITES = 5;
const JOURNAL_ENTRY = { symbol: 'NVDA', side: 'long', entryPrice: 151.4, entryAt: '2026-11-18T15:02:00Z', size: 100, notes: 'bench/stall write phase' };
const WRITE_CALLS = [
  { name: 'POST /api/journal/entries', path: '/api/journal/entries', body: JOURNAL_ENTRY },
  { name: 'POST /api/graphql (journalEntries)', path: '/api/graphql', body: { query: '{ journalEntries(limit: 5) { items { id symbol } } }' } },
] as const;

interface WriteMeasured {
  medianMs: number;
  slowestMs: number | string;
  statuses: string;
}

/**
 * The write phase (issue 27): a journal entry created, and a GraphQL query of
 * the journal, `WRITES` times each one after the other while `/livez` is
 * probed: how long a user's write or query waits (median and slowest), and the
 * worst probe meanwhile.
 */
async function measureWrites(server: Server, token: string, timeoutMs: number): Promise<Map<string, WriteMeasured & { worstLivezMs: number }>> {
  const out = new Map<string, WriteMeasured & { worstLivezMs: number }>();
  for (const call of WRITE_CALLS) {
    await settle(server.base);
    const report = await probeWhile(server.base, async () => {
      const times: number[] = [];
      const statuses: string[] = [];
      for (let i = 0; i < WRITES; i++) {
        const began = performance.now();
        const signal = AbortSignal.timeout(timeoutMs);
        const status = await fetch(`${server.base}${call.path}`, { method: 'POST', signal, headers: { cookie: `__session=${token}`, 'content-type': 'application/json' }, body: JSON.stringify(call.body) })
          .then(async (r) => (await r.arrayBuffer(), String(r.status)))
          .catch(() => (signal.aborted ? 'timeout' : 'error'));
        times.push(performance.now() - began);
        statuses.push(status);
      }
      return { times, statuses };
    });
    const { times, statuses } = report.result;
    const sorted = [...times].sort((a, b) => a - b);
    const counts = new Map<string, number>();
    for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
    out.set(call.name, {
      medianMs: Math.round(sorted[Math.floor(sorted.length / 2)]!),
      slowestMs: statuses.includes('timeout') ? `>${timeoutMs}` : Math.round(sorted.at(-1)!),
      statuses: [...counts].map(([st, n]) => (n === WRITES ? st : `${st}×${n}`)).join(' '),
      worstLivezMs: Math.round(report.worstMs),
    });
  }
  return out;
}

const logged = (server: Server, msg: string) => server.logs.some((l) => l.msg === msg);

async function waitFor(server: Server, msg: string, timeoutMs: number): Promise<boolean> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await Bun.sleep(500)) if (logged(server, msg)) return true;
  return false;
}

/** `--seeded`: the routes whose cost grows with the ledgers, and the signals' history (the stall guard's: test/e2e/stall). */
const SEEDED_ROUTES = ['/api/transparency', '/api/scorecard', '/api/breakouts/history'];

/**
 * `--seeded`: one tree over the stall guard's ledgers (test/helpers/ledger-seed:
 * a finished replay of 5,000 signals and 1,500 live ones, written with this
 * tree's code, so the trees must share their migrations), started once to
 * keep its daily scan (by the first tree; the state then copied for each), then
 * measured cold on the next start (no boot replay): the `after` phase only.
 */
let seededDir: Promise<string> | undefined;

async function benchSeededTree(root: string, only: string[], timeoutMs: number, tree: string) {
  if (!existsSync(join(root, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  const env = { REPLAY_ON_BOOT: 'off', SCAN_INTERVAL_SECONDS: '0' };
  // Seeded and started once (by the first tree), then copied for every tree: the same records, hashes and times
  // (the first start appends its daily scan's signals to the live ledger), so their answers can be compared.
  seededDir ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'breakline-bench-stall-seed-'));
    await seedLedgers(dir, { signals: 5_000, liveSignals: 1_500 });
    await (await startServer(root, dir, env)).stop();
    return dir;
  })();
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-bench-stall-'));
  try {
    cpSync(await seededDir, stateDir, { recursive: true });
    const server = await startServer(root, stateDir, env);
    const token = await sessionToken(root, stateDir);
    const routes = (await documentedRoutes(server.base, '2026-03')).filter((r) => (only.length ? only : SEEDED_ROUTES).some((o) => r.path.startsWith(o)));
    const quotes = watchQuotes(server.base);
    const writesAfter = await measureWrites(server, token, timeoutMs);
    const after = await measureRoutes(server, routes, token, timeoutMs, () => false, tree);
    const quotesAfter = quotes.stop();
    const loads = [loadavg()[0]!];
    const stopAfterMs = await server.stop();
    return { routes, during: new Map<string, Measured>(), after, writesDuring: new Map<string, WriteMeasured & { worstLivezMs: number }>(), writesReplaying: false, writesAfter, quotesDuring: { quotes: 0, 'max gap s': '-' }, quotesAfter, stopDuringMs: null, stopAfterMs, loads };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** Times a read stamps on its answer (when it was computed or verified, how long it took): not compared. */
const STAMPS = /"(generatedAt|verifiedAt)":"[^"]*"|"durationMs":\d+/g;

/** Whether every tree answered `path` with the same bytes, the time stamps aside: `yes`, or the trees that differ from the first. */
function sameBodies(path: string): string {
  const answers = [...(bodies.get(path) ?? new Map<string, string>())].map(([tree, text]) => [tree, text.replace(STAMPS, '')] as const);
  const dump = flag('--dump')[0];
  if (dump) {
    mkdirSync(resolve(dump), { recursive: true });
    for (const [tree, text] of answers) writeFileSync(join(resolve(dump), `${tree.replace(/\W+/g, '_')}${path.replace(/\W+/g, '_')}.json`), text);
  }
  if (answers.length < 2) return '-';
  const differ = answers.filter(([, text]) => text !== answers[0]![1]).map(([tree]) => tree);
  return differ.length ? `differs: ${differ.join(', ')}` : 'yes';
}

/** One tree: both phases, and how long a SIGTERM took during the replay and after it. */
async function benchTree(root: string, only: string[], timeoutMs: number, _tree: string) {
  if (!existsSync(join(root, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-bench-stall-'));
  try {
    const loads: number[] = [];
    let server = await startServer(root, stateDir);
    const token = await sessionToken(root, stateDir);
    // A month of the boot replay's range (the last two years): a year before now.
    const month = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 7);
    let routes = await documentedRoutes(server.base, month);
    if (only.length) routes = routes.filter((r) => only.some((o) => r.path.startsWith(o)));
    else if (smoke) routes = routes.filter((r) => ['/api/health', '/api/bars', '/api/scorecard', '/api/transparency/verify'].some((o) => r.path.startsWith(o)));
    await waitFor(server, 'replay started', 120_000);
    loads.push(loadavg()[0]!);
    let quotes = watchQuotes(server.base);
    // The writes first: they are what a user does on a first start, while the replay surely runs.
    const writesReplaying = !logged(server, 'boot replay finished');
    const writesDuring = await measureWrites(server, token, timeoutMs);
    const during = await measureRoutes(server, routes, token, timeoutMs, () => !logged(server, 'boot replay finished'));
    const quotesDuring = quotes.stop();
    loads.push(loadavg()[0]!);
    const stopDuringMs = logged(server, 'boot replay finished') ? null : await server.stop();
    let after = new Map<string, Measured>();
    let writesAfter = new Map<string, WriteMeasured & { worstLivezMs: number }>();
    let quotesAfter = {};
    let stopAfterMs: number | null = null;
    if (!smoke) {
      if (stopDuringMs !== null) server = await startServer(root, stateDir); // resumes the replay
      const finished = await waitFor(server, 'boot replay finished', 30 * 60_000);
      if (!finished) console.error(`${root}: the boot replay did not finish within 30 minutes`);
      await server.stop();
      server = await startServer(root, stateDir);
      quotes = watchQuotes(server.base);
      writesAfter = await measureWrites(server, token, timeoutMs);
      after = await measureRoutes(server, routes, token, timeoutMs, () => false);
      quotesAfter = quotes.stop();
      loads.push(loadavg()[0]!);
      stopAfterMs = await server.stop();
    } else if (stopDuringMs === null) await server.stop();
    return { routes, during, after, writesDuring, writesReplaying, writesAfter, quotesDuring, quotesAfter, stopDuringMs, stopAfterMs, loads };
  } finally {
    rmSync(stateDir, { recursive: true, force: true });
  }
}

export async function benchStall(): Promise<void> {
  const trees: [string, string][] = [...flag('--tree').map((t) => t.split('=') as [string, string]), ['this tree', ROOT]];
  const timeoutMs = Number(flag('--route-timeout')[0] ?? 60) * 1000;
  const results: ({ name: string } & Awaited<ReturnType<typeof benchTree>>)[] = [];
  const bench = seeded ? benchSeededTree : benchTree;
  for (const [name, root] of trees) results.push({ name, ...(await bench(resolve(root), flag('--only'), timeoutMs, name)) });
  if (seededDir) rmSync(await seededDir, { recursive: true, force: true });
  const phases = seeded ? (['after'] as const) : smoke ? (['during'] as const) : (['during', 'after'] as const);
  const paths = [...new Set(results.flatMap((r) => r.routes.map((x) => x.path)))];
  const rows = paths.map((path) => {
    const row: Record<string, string | number> = { route: path };
    for (const phase of phases) {
      for (const r of results) {
        const m = r[phase].get(path);
        row[`${r.name} ${phase}: worst livez ms`] = m ? `${m.worstMs}${phase === 'during' && !m.replaying ? '*' : ''}${m.late ? ` (${m.late} late)` : ''}` : '-';
        row[`${r.name} ${phase}: main thread ms`] = m?.worstCpuMs ?? '-';
        row[`${r.name} ${phase}: slowest s`] = m?.slowestS ?? '-';
        if (r === results.at(-1)) row[`${phase} status`] = m?.statuses ?? '-';
      }
    }
    if (seeded && results.length > 1) row['same body'] = sameBodies(path);
    return row;
  });
  printTable(
    `Worst /livez (ms) while each documented GET route is called cold, ${CALLERS} at once (* the boot replay had ended; late: probes that waited > 100 ms while the server's main thread worked that long; main thread ms: the most CPU its main thread spent while one probe waited)${seeded ? ', over the seeded ledgers' : ''}`,
    rows,
  );
  printTable(
    `Writes and a GraphQL query, ${WRITES} one after the other (ms: median / slowest; worst /livez meanwhile; * the boot replay had ended)`,
    WRITE_CALLS.map((call) => {
      const row: Record<string, string> = { call: call.name };
      for (const phase of phases) {
        for (const r of results) {
          const m = (phase === 'during' ? r.writesDuring : r.writesAfter).get(call.name);
          const mark = phase === 'during' && !r.writesReplaying ? '*' : '';
          row[`${r.name} ${phase}: median / slowest ms`] = m ? `${m.medianMs} / ${m.slowestMs}${mark}` : '-';
          row[`${r.name} ${phase}: worst livez ms`] = m ? String(m.worstLivezMs) : '-';
          if (r === results.at(-1)) row[`${phase} status`] = m?.statuses ?? '-';
        }
      }
      return row;
    }),
  );
  printTable(
    'Per tree: quotes on /api/stream (AAPL, MSFT), SIGTERM to exit, load average (1 min) at the phases',
    results.map((r) => ({
      tree: r.name,
      'during: quotes, max gap s': Object.values(r.quotesDuring).join(', '),
      'after: quotes, max gap s': Object.values(r.quotesAfter).join(', ') || '-',
      'SIGTERM during replay ms': r.stopDuringMs === null ? '-' : Math.round(r.stopDuringMs),
      'SIGTERM after ms': r.stopAfterMs === null ? '-' : Math.round(r.stopAfterMs),
      'load avg': r.loads.map((l) => l.toFixed(1)).join(' / '),
    })),
  );
  const worst = (r: (typeof results)[number], phase: 'during' | 'after') => Math.max(0, ...[...r[phase].values()].map((m) => m.worstMs));
  printTable('Worst /livez over every route (ms)', results.map((r) => ({ tree: r.name, during: seeded ? '-' : worst(r, 'during'), after: smoke && !seeded ? '-' : worst(r, 'after') })));
}

if (import.meta.main) await benchStall();
