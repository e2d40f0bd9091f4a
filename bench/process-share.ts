/**
 * @module bench/process-share
 * Where the process share of bench/http --floor comes from: the contract
 * floor (bench/floor) preloaded into a server process built up step by step,
 * and its CPU per request at each step, beside the same floor served by this
 * process (the standalone floor). Each step is a process of its own
 * (bench/process-share-step.ts, `BENCH_STEP`), so a step's cost is what that
 * step leaves running in the process, not what it did once.
 *
 * Steps (cumulative): `empty` (the preload alone), `imports` (the modules
 * the server loads: app, services, GraphQL, precompile, providers),
 * `database` (PGlite opened and migrated), `services` (createServices, no
 * warm-up: the worker pool's threads start lazily), `pool` (createServices
 * with the pool's threads started), `warm` (services.warm(): the background
 * workers of the warm-up and ready phases, the first scan, the process
 * metrics), `compose` (the Elysia app composed, not listening), `app` (and
 * listening), `server` (the real `src/index.ts`, as bench/http runs it).
 * Probes beside them, each on an empty process: `second-server` (one more idle
 * Bun.serve), `process-metrics` (prom-client's default metrics),
 * `wasm-memory` (a 128 MiB WebAssembly memory, as PGlite holds),
 * `js-heap` (a million small objects kept). `server+app`: the server, its own
 * /api/snapshot loaded just before each run of the floor (as bench/http
 * measured it before its settle). The table gives CPU µs per request of the
 * whole process and of its main thread (/proc/PID/task/PID), so work on other
 * threads shows apart; page faults and context switches per 1k requests; and
 * the garbage collections in the run with their pauses (JSC's own log,
 * BUN_JSC_logGC). Findings: docs/benchmarks.md, "Where the floor is".
 *
 *   bun run bench/process-share.ts                     # every step, 4 s each at 64 connections
 *   bun run bench/process-share.ts --steps empty,server,server+app --seconds 3 --runs 3
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { configureFloor, floorServer } from './floor';
import { cpuSeconds, freePort, haveWrk, median, printTable, wrk } from './lib';

const STEPS = ['empty', 'imports', 'database', 'services', 'pool', 'warm', 'compose', 'app', 'server'] as const;

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}


/** Minor page faults of a process (/proc/PID/stat's minflt) and its main thread's context switches (voluntary, involuntary: /proc/PID/task/PID/status). */
function faultsAndSwitches(pid: number): { faults: number; voluntary: number; involuntary: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const status = readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
  const count = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]);
  return { faults: Number(fields[7]), voluntary: count('voluntary_ctxt_switches'), involuntary: count('nonvoluntary_ctxt_switches') };
}

/** CPU seconds per thread name of a process (its threads' `comm`, summed by name). */
function threads(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() + (tid === String(pid) ? ' (main)' : '');
      byName.set(name, (byName.get(name) ?? 0) + cpuSeconds(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // a thread that ended meanwhile
    }
  }
  return byName;
}

/** A process at `step` with the floor preloaded on `floorPort`, once its floor answers and the step is done (it prints `step ready`). */
async function startStep(step: string, floorPort: number) {
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-bench-share-'));
  const root = resolve(import.meta.dir, '..');
  const script = step === 'server' ? join(root, 'src/index.ts') : join(import.meta.dir, 'process-share-step.ts');
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, 'run', '--preload', join(import.meta.dir, 'floor.ts'), script], {
    cwd: root,
    // JSC's own log of each collection (BUN_JSC_logGC: one `START … => EdenCollection … p=<pause>ms` line each) on stderr, read below.
    env: { ...process.env, BUN_JSC_logGC: '1', BENCH_STEP: step, BENCH_FLOOR_PORT: String(floorPort), PORT: String(port), HOST: '127.0.0.1', STATE_DIR: stateDir, LOG_LEVEL: 'warn', RATE_LIMIT_QUOTA: '1000000000', SCAN_INTERVAL_SECONDS: '0', REPLAY_ON_BOOT: 'off', DATABASE_URL: '', REDIS_URL: '' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  // The pauses of the collections logged so far (ms), and which of them were eden collections.
  const pauses: { eden: boolean; ms: number }[] = [];
  void (async () => {
    let rest = '';
    for await (const chunk of proc.stderr) {
      const lines = (rest + new TextDecoder().decode(chunk)).split('\n');
      rest = lines.pop()!;
      for (const line of lines) {
        const pause = /START .*=> (\w+)Collection.* p=([\d.]+)ms/.exec(line);
        if (pause) pauses.push({ eden: pause[1] === 'Eden', ms: Number(pause[2]) });
        else if (!line.startsWith('[GC<') && !line.startsWith('GC END') && !line.startsWith('Requesting GC') && line.trim() !== '') process.stderr.write(`${step}: ${line}\n`);
      }
    }
  })();
  const stdout = proc.stdout.getReader();
  const ready = (async () => {
    if (step === 'server') {
      for (;;) {
        if (proc.exitCode !== null) throw new Error(`${step} exited with ${proc.exitCode}`);
        if (await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false)) return;
        await Bun.sleep(200);
      }
    }
    let seen = '';
    for (;;) {
      const { value, done } = await stdout.read();
      if (done) throw new Error(`${step} exited before it was ready`);
      seen += new TextDecoder().decode(value);
      if (seen.includes('step ready')) return;
    }
  })();
  await ready;
  void (async () => {
    for (;;) if ((await stdout.read()).done) return;
  })();
  return {
    pid: proc.pid,
    pauses,
    appBase: step === 'server' || step === 'app' ? `http://127.0.0.1:${port}` : undefined,
    async stop() {
      proc.kill('SIGTERM');
      await proc.exited;
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

if (import.meta.main) {
  if (!haveWrk()) {
    console.log('bench/process-share: wrk not found; skipped');
    process.exit(0);
  }
  const seconds = Number(flag('--seconds') ?? 4);
  const runs = Number(flag('--runs') ?? 1);
  const connections = Number(flag('--connections') ?? 64);
  // --app-first (or a step named `server+app`): the app's own /api/snapshot loaded just before each measurement of the in-process floor.
  const appFirst = process.argv.includes('--app-first');
  const steps = (flag('--steps')?.split(',') ?? STEPS) as string[];
  // One answer's worth of JSON and the headers the server answers it with (the size of /api/snapshot's).
  const payload = new TextEncoder().encode(JSON.stringify({ symbol: 'AAPL', bars: Array.from({ length: 40 }, (_, i) => ({ t: 1_700_000_000 + i, o: 1.5, h: 2.5, l: 0.5, c: 2, v: 1000 + i })) })).buffer as ArrayBuffer;
  const answered = new Headers({ 'content-type': 'application/json', 'x-request-id': 'req_0', 'api-version': '2025-01-01', 'x-content-type-options': 'nosniff', 'x-ratelimit-limit': '1000000000', 'x-ratelimit-remaining': '1', 'x-ratelimit-reset': '60', etag: '"abc"', vary: 'Accept-Encoding' });
  const route = '/api/snapshot';
  const rows: Record<string, string | number>[] = [];
  const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
  const standalone = floorServer(route, payload, answered);
  const started: { step: string; base: string; process: Awaited<ReturnType<typeof startStep>> }[] = [];
  const cpuUs = new Map<string, { alone: number[]; step: number[] }>();
  try {
    // Every step's process up at once, then measured in turns, each right after the standalone floor: a change in
    // the machine's load falls on every step alike.
    for (const step of steps) {
      const floorPort = await freePort();
      const one = { step, base: `http://127.0.0.1:${floorPort}`, process: await startStep(step.replace(/\+app$/, ''), floorPort) };
      started.push(one);
      await configureFloor(one.base, route, payload, answered);
      await wrk(one.base + route, { seconds: 2, connections });
      cpuUs.set(step, { alone: [], step: [] });
    }
    for (let run = 0; run < runs; run++) {
      for (const { step, base, process: server } of started) {
        // With --app-first, the app's own /api/snapshot is loaded just before (as bench/http measures the app, then the in-server floor).
        if ((appFirst || step.endsWith('+app')) && server.appBase) await wrk(`${server.appBase}/api/snapshot?symbol=AAPL`, { seconds, connections });
        const own = cpuSeconds(`/proc/${process.pid}/stat`);
        const alone = await wrk(`http://127.0.0.1:${standalone.port}${route}`, { seconds, connections });
        const aloneUs = ((cpuSeconds(`/proc/${process.pid}/stat`) - own) * 1e6) / alone.requests;
        const before = cpuSeconds(`/proc/${server.pid}/stat`);
        const mainBefore = cpuSeconds(`/proc/${server.pid}/task/${server.pid}/stat`);
        const threadsBefore = threads(server.pid);
        const countsBefore = faultsAndSwitches(server.pid);
        const pausesBefore = server.pauses.length;
        const result = await wrk(base + route, { seconds, connections });
        const total = ((cpuSeconds(`/proc/${server.pid}/stat`) - before) * 1e6) / result.requests;
        const countsAfter = faultsAndSwitches(server.pid);
        const pauses = server.pauses.slice(pausesBefore).map((p) => p.ms).sort((a, b) => a - b);
        const perThousand = (key: 'faults' | 'voluntary' | 'involuntary') => (((countsAfter[key] - countsBefore[key]) * 1000) / result.requests).toFixed(1);
        const main = ((cpuSeconds(`/proc/${server.pid}/task/${server.pid}/stat`) - mainBefore) * 1e6) / result.requests;
        const others = [...threads(server.pid)]
          .map(([name, s]) => [name, s - (threadsBefore.get(name) ?? 0)] as const)
          .filter(([name, s]) => !name.endsWith('(main)') && s > 0)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 2)
          .map(([name, s]) => `${name} ${((s * 1e6) / result.requests).toFixed(1)}`)
          .join(', ');
        cpuUs.get(step)!.alone.push(aloneUs);
        cpuUs.get(step)!.step.push(total);
        rows.push({
          step: appFirst && server.appBase ? `${step}+app` : step,
          'floor req/s': Math.round(alone.requestsPerSec),
          'req/s': Math.round(result.requestsPerSec),
          ratio: (result.requestsPerSec / alone.requestsPerSec).toFixed(2),
          'floor p99 ms': alone.p99Ms.toFixed(2),
          'p99 ms': result.p99Ms.toFixed(2),
          'floor CPU µs/req': aloneUs.toFixed(1),
          'CPU µs/req': total.toFixed(1),
          'main thread µs/req': main.toFixed(1),
          'other threads µs/req': others || '-',
          'faults /1k req': perThousand('faults'),
          'GCs: n, median/max pause ms': pauses.length === 0 ? '0' : `${pauses.length}, ${median(pauses).toFixed(1)} / ${pauses.at(-1)!.toFixed(1)}`,
          'main switches /1k req (vol/invol)': `${perThousand('voluntary')} / ${perThousand('involuntary')}`,
          load: load(),
        });
      }
    }
  } finally {
    standalone.stop(true);
    for (const { process: server } of started) await server.stop();
  }
  printTable(
    'bench/process-share — medians per step: CPU µs per request of the in-process floor over the standalone floor measured just before it',
    [...cpuUs].map(([step, { alone, step: own }]) => ({
      step,
      'standalone floor µs/req': median(alone).toFixed(1),
      'in-process floor µs/req': median(own).toFixed(1),
      'median of ratios': median(own.map((us, i) => us / alone[i]!)).toFixed(2),
    })),
  );
  printTable(`bench/process-share — the contract floor preloaded into a server built up step by step, wrk -t1 -c${connections} -d${seconds}s (load average at each row)`, rows);
}
