/**
 * bench/http: throughput and latency of the hot paths of a real server process
 * (`bun run src/index.ts`, embedded PGlite, synthetic market, warmed up) next
 * to a bare `Bun.serve` handler that returns the very same bytes with the same
 * content type, with wrk on loopback at 64 and 256 connections. The ratio is
 * the server's requests/s over the bare handler's, measured back to back.
 * Goals (issue 13): ≥ 0.70 for bars, snapshot and cached breakouts, ≥ 0.50 for
 * health; p99 ≤ 5 ms at 256 connections where the bare handler manages it.
 * The boot replay (REPLAY_ON_BOOT) is off: it is a one-off background job that
 * runs for minutes on the main thread after the first start (jobs/replay), and
 * the requests would be measured against it rather than against the bare handler.
 * `CPU µs/req` is the server process's CPU time (every thread: GC included)
 * over the requests of the run, the bare handler's likewise (it runs in this
 * process): steadier than req/s while other work loads the machine.
 * Also the server's RSS once ready (the daily boot scan), and after the 4h and
 * 1h scans too.
 *
 * `--tree name=dir` (repeatable) measures other checkouts in the same run, e.g.
 * main exported with `git archive main | tar -x -C /tmp/main` (it uses this
 * worktree's node_modules through a symlink), for a before/after table on one
 * noisy machine: every tree's server runs at once, and each measurement is
 * taken from the bare handler and then from each tree in turn, so a change in
 * the machine's load falls on all of them alike. `--runs N` repeats each
 * measurement and reports medians. `--log-level info` runs the servers at
 * `npm start`'s default level (an access-log line per request, to a pipe read
 * by this process) rather than `warn`. `--warm S` (3 s) loads each server on
 * each target before it is measured. `--target /api/snapshot` (repeatable)
 * measures only the targets named (by their label in the table). `--floor`
 * adds a `contract floor` row: a bare handler doing only what the contract
 * makes any server do per request (bench/floor), the ceiling of the ratio;
 * and a `floor in this tree's process` row: the same handler preloaded into
 * this tree's server process, beside the app (its heap, threads, timers and
 * background loops around it). The contract floor to the in-server floor is
 * what the server process costs per request whatever the pipeline does; the
 * in-server floor to `this tree` is the pipeline's own cost. The two share a
 * process, so with `--floor` the floor is preloaded into every tree's server
 * and before each run in a server process its garbage is collected
 * (bench/floor's settle), every tree's alike: no run pays for the one before.
 * Every row then also gives its req/s and p99 over the contract floor's of the
 * same connections (`req/s ÷ floor`, `p99 ÷ floor`; issue 27's goal: ≥ 0.95
 * and ≤ 1.5), and each row the load average when its runs ended.
 * `--env NAME:VAR=VALUE` (repeatable) sets VAR in the environment of the
 * server of the tree named NAME only (`this tree` names this one): the same
 * directory listed twice under two names, an allocator or engine setting
 * apart, measured side by side.
 * `main µs/req` is the CPU of the process's main thread alone (the event loop
 * that answers), the rest of `CPU µs/req` its other threads' (the collector's
 * helpers, the JIT, the allocator's scavenger, the worker pool): a thread
 * that works beside a saturated loop takes one of the two cores from it or
 * from wrk (issue 27's tail). `--gc` runs the servers with `BUN_JSC_logGC=1`
 * and adds, per server row, the collections per 100k requests and their
 * longest pause (each pause holds every request in flight: at 64 connections
 * a 3 ms pause every 20k requests is already ~1% of the answers late, the
 * p99; the bench's own process, serving the bare handler and the contract
 * floor, is not logged: `—`).
 *
 *   bun run bench/http.ts                                   # this tree, 5 s per measurement
 *   bun run bench/http.ts --tree before=/tmp/main --runs 3  # before/after
 *   bun run bench/http.ts --target /api/snapshot --seconds 3
 *   bun run bench/http.ts --smoke                           # 1 s per measurement, 64 connections
 *   bun run bench/http.ts --floor --gc --target /api/bars    # with the collections of each server
 *   bun run bench/http.ts --tree main=/tmp/main --tree off=/tmp/main --env off:MIMALLOC_PURGE_DELAY=-1  # one tree twice, an environment apart
 */
import { mkdtempSync, readFileSync, rmSync, existsSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { configureFloor, floorServer, settleFloorProcess } from './floor';
import { cpuSeconds, freePort, haveWrk, median, printTable, smoke, wrk, type LoadResult } from './lib';

const TARGETS = [
  ['/api/bars', '/api/bars?symbol=AAPL&range=6mo'],
  ['/api/snapshot', '/api/snapshot?symbol=AAPL'],
  ['cached /api/breakouts', '/api/breakouts'],
  ['/api/health', '/api/health'],
] as const;

function flag(name: string): string[] {
  const values: string[] = [];
  process.argv.forEach((arg, i) => {
    if (arg === name && process.argv[i + 1]) values.push(process.argv[i + 1]!);
  });
  return values;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}


/** The collections of a server's main heap logged so far (`--gc`: BUN_JSC_logGC=1 on its stderr). */
interface GcTally {
  collections: number;
  pauseMaxMs: number;
  /** The main thread's heap: the first one logged (the worker pool's threads have heaps of their own, started later). */
  heap?: string;
}

/** Counts the main heap's collections in a BUN_JSC_logGC stream (a line per collection: `[GC<0x…>: START … => EdenCollection, … p=2.48ms …`). */
function tallyGc(stream: ReadableStream<Uint8Array>, into: GcTally): void {
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of stream) {
      buffered += decoder.decode(chunk, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        const pause = /^\[GC<(\w+)>: START .* => \w+Collection,.* p=([\d.]+)ms/.exec(line);
        if (!pause || (into.heap ??= pause[1]) !== pause[1]) continue;
        into.collections++;
        into.pauseMaxMs = Math.max(into.pauseMaxMs, Number(pause[2]));
      }
    }
  })();
}

type Measured = LoadResult & { cpuUs: number; mainUs: number; gc?: GcTally };

/**
 * A wrk run with the CPU the server process spent on it per request (µs):
 * less noisy than req/s on a shared machine (another process's load slows the
 * server down, it hardly changes what each request costs); its main thread's
 * share, and (`gc`: the server's running tally) the collections in the run.
 */
async function measured(url: string, pid: number, opts: { seconds: number; connections: number }, gc?: GcTally): Promise<Measured> {
  // The log of a collection made just before (the settle's) is read from the pipe a moment later: not this run's.
  if (gc) await Bun.sleep(100);
  const [before, mainBefore] = [cpuSeconds(`/proc/${pid}/stat`), cpuSeconds(`/proc/${pid}/task/${pid}/stat`)];
  const gcBefore = gc && { ...gc, pauseMaxMs: 0 };
  if (gc) gc.pauseMaxMs = 0;
  const result = await wrk(url, opts);
  const per = (seconds: number) => (seconds * 1e6) / Math.max(1, result.requests);
  return {
    ...result,
    cpuUs: per(cpuSeconds(`/proc/${pid}/stat`) - before),
    mainUs: per(cpuSeconds(`/proc/${pid}/task/${pid}/stat`) - mainBefore),
    gc: gc && gcBefore && { collections: gc.collections - gcBefore.collections, pauseMaxMs: gc.pauseMaxMs },
  };
}

/** A server process from `root`, warmed up (ready), on a port of its own; with `floorPort`, bench/floor preloaded beside the app on that port. */
async function startServer(root: string, logLevel: string, floorPort?: number, logGc = false, extraEnv: Record<string, string> = {}) {
  if (!existsSync(join(root, 'node_modules'))) symlinkSync(resolve(import.meta.dir, '../node_modules'), join(root, 'node_modules'));
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-bench-http-'));
  const port = await freePort();
  const started = performance.now();
  const preload = floorPort === undefined ? [] : ['--preload', resolve(import.meta.dir, 'floor.ts')];
  const proc = Bun.spawn([process.execPath, 'run', ...preload, join(root, 'src/index.ts')], {
    cwd: root,
    env: { ...process.env, ...extraEnv, ...(floorPort === undefined ? {} : { BENCH_FLOOR_PORT: String(floorPort) }), ...(logGc ? { BUN_JSC_logGC: '1' } : {}), PORT: String(port), HOST: '127.0.0.1', STATE_DIR: stateDir, LOG_LEVEL: logLevel, RATE_LIMIT_QUOTA: '1000000000', SCAN_INTERVAL_SECONDS: '0', REPLAY_ON_BOOT: 'off', DATABASE_URL: '', REDIS_URL: '' },
    stdout: 'ignore',
    // At info the access lines go to a pipe that is read and dropped (as a process manager would read them).
    stderr: logLevel === 'warn' && !logGc ? 'ignore' : 'pipe',
  });
  const gc: GcTally | undefined = logGc ? { collections: 0, pauseMaxMs: 0 } : undefined;
  if (proc.stderr instanceof ReadableStream) {
    if (gc) tallyGc(proc.stderr, gc);
    else void proc.stderr.pipeTo(new WritableStream());
  }
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server from ${root} exited with ${proc.exitCode}`);
    const ready = await fetch(`${base}/readyz`).then((r) => r.status === 200, () => false);
    if (ready) break;
    await Bun.sleep(200);
  }
  const readyMs = Math.round(performance.now() - started);
  const rssReady = rssMb(proc.pid);
  for (const timeframe of ['4h', '1h']) {
    const answer = await fetch(`${base}/api/breakouts?timeframe=${timeframe}`);
    if (answer.status !== 200) throw new Error(`${root}: /api/breakouts?timeframe=${timeframe} answered ${answer.status}`);
  }
  const rssScans = rssMb(proc.pid);
  return {
    base,
    floorBase: floorPort === undefined ? undefined : `http://127.0.0.1:${floorPort}`,
    readyMs,
    rssReady,
    rssScans,
    pid: proc.pid,
    gc,
    async stop() {
      proc.kill('SIGTERM');
      await proc.exited;
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** `--gc`'s columns of a row: collections per 100k requests over its runs and the longest pause (`—` where not logged). */
function gcColumns(runs: Measured[]): Record<string, string> {
  const logged = runs.filter((r) => r.gc !== undefined);
  if (logged.length === 0) return { 'GC /100k req': '—', 'GC max ms': '—' };
  const requests = logged.reduce((n, r) => n + r.requests, 0);
  const collections = logged.reduce((n, r) => n + r.gc!.collections, 0);
  return { 'GC /100k req': ((collections * 1e5) / Math.max(1, requests)).toFixed(1), 'GC max ms': Math.max(...logged.map((r) => r.gc!.pauseMaxMs)).toFixed(1) };
}

export async function benchHttp(): Promise<void> {
  if (!haveWrk()) {
    console.log('bench/http: wrk not found (apt-get install -y wrk); skipped');
    return;
  }
  const seconds = smoke ? 1 : Number(flag('--seconds')[0] ?? 5);
  const runs = smoke ? 1 : Number(flag('--runs')[0] ?? 1);
  const logLevel = flag('--log-level')[0] ?? 'warn';
  const warmSeconds = smoke ? 1 : Number(flag('--warm')[0] ?? 3);
  const connections = smoke ? [64] : [64, 256];
  const withFloor = process.argv.includes('--floor');
  const logGc = process.argv.includes('--gc');
  const trees: [string, string][] = [...flag('--tree').map((t) => t.split('=') as [string, string]), ['this tree', resolve(import.meta.dir, '..')]];
  // `--env NAME:VAR=VALUE`: VAR set for the server of the tree named NAME only (the same directory may be listed twice).
  const envOf = (name: string): Record<string, string> =>
    Object.fromEntries(flag('--env').flatMap((e) => {
      const [tree, assignment = ''] = [e.slice(0, e.indexOf(':')), e.slice(e.indexOf(':') + 1)];
      const eq = assignment.indexOf('=');
      return tree === name && eq > 0 ? [[assignment.slice(0, eq), assignment.slice(eq + 1)]] : [];
    }));

  const memory: Record<string, string | number>[] = [];
  const servers: { name: string; server: Awaited<ReturnType<typeof startServer>> }[] = [];
  try {
    // One after the other, so each one's ready time and RSS are its own; then all of them stay up.
    for (const [i, [name, root]] of trees.entries()) {
      // The floor is preloaded into every tree's server (so each can be settled alike), measured beside this tree's
      // app (the last tree) only: one more row, not one per tree.
      const server = await startServer(root, logLevel, withFloor ? await freePort() : undefined, logGc, envOf(name));
      servers.push({ name, server });
      memory.push({ tree: name, 'ready ms': server.readyMs, 'RSS ready MB': server.rssReady, 'RSS after 3 scans MB': server.rssScans });
    }
    const rows: Record<string, string | number>[] = [];
    const only = flag('--target');
    for (const [label, path] of TARGETS.filter(([label]) => only.length === 0 || only.includes(label))) {
      // The bare handler returns this tree's bytes (the last server), with its content type.
      const warm = await fetch(servers.at(-1)!.server.base + path);
      if (warm.status !== 200) throw new Error(`${path} answered ${warm.status}`);
      const payload = await warm.arrayBuffer();
      const type = warm.headers.get('content-type') ?? 'application/json';
      // Each server warmed up on the target alike (a server's per-request cost keeps falling for minutes of load).
      for (const { name, server } of servers) {
        const answer = await fetch(server.base + path);
        if (answer.status !== 200) throw new Error(`${name}: ${path} answered ${answer.status}`);
        await wrk(server.base + path, { seconds: warmSeconds, connections: connections[0]! });
      }
      const bare = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(payload, { headers: { 'content-type': type } }) });
      const floor = withFloor ? floorServer(path.split('?')[0]!, payload, warm.headers) : undefined;
      const measuredServers: { name: string; server: { base: string; pid: number; floorBase?: string; gc?: GcTally } }[] = [...servers];
      const own = servers.at(-1)!.server;
      if (floor && own.floorBase) {
        await configureFloor(own.floorBase, path.split('?')[0]!, payload, warm.headers);
        await wrk(own.floorBase + path, { seconds: warmSeconds, connections: connections[0]! });
        measuredServers.push({ name: 'floor in this tree’s process', server: { base: own.floorBase, pid: own.pid, floorBase: own.floorBase, gc: own.gc } });
      }
      if (floor) measuredServers.push({ name: 'contract floor', server: { base: `http://127.0.0.1:${floor.port}`, pid: process.pid } });
      try {
        for (const c of connections) {
          const bareRuns: Measured[] = [];
          const appRuns = measuredServers.map(() => [] as Measured[]);
          for (let run = 0; run < runs; run++) {
            // The bare handler is served by this process (idle meanwhile but for it).
            bareRuns.push(await measured(`http://127.0.0.1:${bare.port}${path}`, process.pid, { seconds, connections: c }));
            for (const [i, { server }] of measuredServers.entries()) {
              // The app and the in-server floor share a process: each run in a server process starts with the garbage of
              // the run before collected (every tree's alike), so neither pays for the other's.
              if (server.floorBase) await settleFloorProcess(server.floorBase);
              appRuns[i]!.push(await measured(server.base + path, server.pid, { seconds, connections: c }, server.gc));
            }
          }
          const bareRps = median(bareRuns.map((r) => r.requestsPerSec));
          // The contract floor's medians (the last row with --floor): each row's req/s and p99 over them (issue 27's goal).
          const floorRuns = floor ? appRuns.at(-1)! : undefined;
          const floorRps = floorRuns && median(floorRuns.map((r) => r.requestsPerSec));
          const floorP99 = floorRuns && median(floorRuns.map((r) => r.p99Ms));
          for (const [i, { name }] of measuredServers.entries()) {
            const app = appRuns[i]!;
            const appRps = median(app.map((r) => r.requestsPerSec));
            const appP99 = median(app.map((r) => r.p99Ms));
            rows.push({
              target: label,
              conns: c,
              tree: name,
              'bare req/s': Math.round(bareRps),
              'req/s': Math.round(appRps),
              ratio: (appRps / bareRps).toFixed(2),
              'bare p50/p99 ms': `${median(bareRuns.map((r) => r.p50Ms)).toFixed(2)} / ${median(bareRuns.map((r) => r.p99Ms)).toFixed(2)}`,
              'p50/p99 ms': `${median(app.map((r) => r.p50Ms)).toFixed(2)} / ${appP99.toFixed(2)}`,
              'bare CPU µs/req': median(bareRuns.map((r) => r.cpuUs)).toFixed(1),
              'CPU µs/req': median(app.map((r) => r.cpuUs)).toFixed(1),
              'main µs/req': median(app.map((r) => r.mainUs)).toFixed(1),
              ...(logGc ? gcColumns(app) : {}),
              ...(floorRps && floorP99 ? { 'req/s ÷ floor': (appRps / floorRps).toFixed(2), 'p99 ÷ floor': (appP99 / floorP99).toFixed(2) } : {}),
              'non-2xx': app.reduce((n, r) => n + r.non2xx, 0),
              load: loadavg()[0]!.toFixed(1),
            });
          }
        }
      } finally {
        bare.stop(true);
        floor?.stop(true);
      }
    }
    printTable(
      `bench/http — wrk -t1 -d${seconds}s, ${runs} run(s) (medians), LOG_LEVEL=${logLevel}, same bytes from a bare Bun.serve (goals: ratio ≥ 0.70 bars/snapshot/breakouts, ≥ 0.50 health${withFloor ? '; req/s ÷ floor ≥ 0.95 and p99 ÷ floor ≤ 1.5' : ''}); load = the 1-minute load average when the row's runs ended`,
      rows,
    );
    printTable('bench/http — server process memory (embedded PGlite, synthetic market)', memory);
  } finally {
    for (const { server } of servers) await server.stop();
  }
}

if (import.meta.main) await benchHttp();
