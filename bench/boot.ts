/**
 * Boot: how soon a started server is live (`/livez` 200) and ready (`/readyz`
 * 200), on the embedded defaults (PGlite, synthetic market). Each run starts
 * `bun run src/index.ts` (or the executable given with `--binary PATH`) on a
 * free loopback port with a STATE_DIR under /tmp and polls both probes every
 * 10 ms. "cold" runs start from an empty STATE_DIR (initdb, migrations, the
 * first universe scan); "warm" ones restart on the state the cold run left
 * (the usual restart). Prints the medians, and the warm-up steps the server
 * logged in its last cold and warm run.
 *
 * Memory (issue 13: ≤ 500 MB after the boot scans): the server's RSS when
 * ready; after the boot scans of every timeframe (cold runs: the server's own
 * pass, or for a tree that has none, /api/breakouts of 4h and 1h, which scans
 * them); and after the boot replay of a fresh install (REPLAY_ON_BOOT, cold
 * runs; `--no-replay` leaves it out, as `--smoke` does), with the peak seen
 * while it ran (sampled every 250 ms). While the boot scans run, `/readyz` is
 * polled every 50 ms: its slowest answer says how long requests waited on them.
 *
 * `--tree name=dir` (repeatable) measures other checkouts in the same run, e.g.
 * main exported with `git archive main | tar -x -C /tmp/main` (its
 * node_modules: this tree's, through a symlink), for a before/after table; the
 * trees take turns run by run. Besides wall time, each run reads the server's
 * CPU time (all threads) when it is first seen ready, which another process's
 * load on the machine changes far less, and the load average as it starts.
 *
 *   bun run bench/boot.ts [--smoke] [--runs N] [--no-replay] [--tree before=/tmp/main] [--binary dist/breakline]
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { printTable, smoke } from './lib';

const ROOT = resolve(import.meta.dir, '..');
const TIMEOUT_MS = 180_000;

interface BootTimes {
  liveMs: number;
  readyMs: number;
  /** CPU time (user + system, every thread) the server had used when it was first seen ready: less noisy than wall time on a shared machine. */
  cpuReadyMs: number;
  steps: string[];
  /** RSS (MB) once ready; after the boot scans and after the boot replay (cold runs); the peak during the replay. */
  rssReady: number;
  rssScans?: number;
  rssReplay?: number;
  rssPeak?: number;
  /** The slowest `/readyz` answer while the boot scans ran (ms; polled every 50 ms): how long requests waited on them. */
  readyzMaxMs?: number;
}

/** CPU time (ms, user + system, all threads, those that exited included) a process has used, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ = 100 on Linux)
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

function flag(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === name && process.argv[i + 1] ? [process.argv[i + 1]!] : []));
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function status(url: string): Promise<number> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(1000) })).status;
  } catch {
    return 0;
  }
}

/**
 * Starts the server of `root` (or `binary`) on `stateDir`, times its probes,
 * reads its RSS, and with `memory` waits for the boot scans (and the boot
 * replay, with `replay`) to read it again; stops it (SIGTERM).
 */
export async function timeBoot(stateDir: string, options: { root?: string; binary?: string; memory?: boolean; replay?: boolean } = {}): Promise<BootTimes> {
  const { root = ROOT, binary, memory = false, replay = false } = options;
  const port = freePort();
  const started = performance.now();
  const command = binary ? [resolve(binary)] : [process.execPath, 'run', join(root, 'src/index.ts')];
  const proc = Bun.spawn(command, {
    cwd: binary ? stateDir : root,
    // The embedded defaults, whatever this shell points at (CI runs the benches with DATABASE_URL set).
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PORT: String(port), HOST: '127.0.0.1', STATE_DIR: stateDir, LOG_LEVEL: 'info', SCAN_INTERVAL_SECONDS: '300', REPLAY_ON_BOOT: replay ? 'on' : 'off' },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const lines: string[] = [];
  const log = (async () => {
    let rest = '';
    for await (const chunk of proc.stderr.pipeThrough(new TextDecoderStream())) {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      lines.push(...parts);
    }
  })();
  const logged = (text: string) => lines.some((line) => line.includes(text));
  let liveMs = NaN;
  let readyMs = NaN;
  const times: Partial<BootTimes> = {};
  try {
    while (performance.now() - started < TIMEOUT_MS && Number.isNaN(readyMs)) {
      if (Number.isNaN(liveMs) && (await status(`http://127.0.0.1:${port}/livez`)) === 200) liveMs = performance.now() - started;
      if (!Number.isNaN(liveMs) && (await status(`http://127.0.0.1:${port}/readyz`)) === 200) readyMs = performance.now() - started;
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${lines.join('\n')}`);
      await Bun.sleep(10);
    }
    if (Number.isNaN(readyMs)) throw new Error(`not ready within ${TIMEOUT_MS} ms`);
    times.cpuReadyMs = cpuMs(proc.pid);
    times.rssReady = rssMb(proc.pid);
    if (memory) {
      let probing = true;
      let readyzMaxMs = 0;
      const probe = (async () => {
        while (probing) {
          const asked = performance.now();
          await status(`http://127.0.0.1:${port}/readyz`);
          readyzMaxMs = Math.max(readyzMaxMs, performance.now() - asked);
          await Bun.sleep(50);
        }
      })();
      // A server that runs its boot scans itself logs when they are done; an older one scans a timeframe when asked for it.
      for (const timeframe of ['4h', '1h']) await fetch(`http://127.0.0.1:${port}/api/breakouts?timeframe=${timeframe}`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      while (logged('after ready: the boot scans of every timeframe') && !logged('memory after the boot scans') && performance.now() - started < TIMEOUT_MS) await Bun.sleep(50);
      probing = false;
      await probe;
      times.readyzMaxMs = readyzMaxMs;
      times.rssScans = rssMb(proc.pid);
      if (replay) {
        let peak = times.rssScans;
        while (!logged('boot replay finished') && !logged('boot replay failed') && performance.now() - started < 4 * TIMEOUT_MS) {
          await Bun.sleep(250);
          peak = Math.max(peak, rssMb(proc.pid));
        }
        // The newer server collects once the replay is done and logs it.
        for (let i = 0; i < 40 && logged('after ready: the boot replay') && !logged('memory after the boot replay'); i++) await Bun.sleep(50);
        times.rssReplay = rssMb(proc.pid);
        times.rssPeak = Math.max(peak, times.rssReplay);
      }
    }
  } finally {
    proc.kill('SIGTERM');
    await proc.exited;
  }
  await log;
  const steps = lines
    .filter((line) => ((line.includes('warm-up:') || line.includes('after ready:')) && line.includes(' done')) || line.includes('drawn in worker threads'))
    .map((line) => {
      const { msg, tookMs } = JSON.parse(line) as { msg: string; tookMs: number };
      return `${msg.replace(/^warm-up: /, '').replace(/ done$/, '')}: ${tookMs} ms`;
    });
  return { liveMs, readyMs, steps, rssReady: times.rssReady!, cpuReadyMs: times.cpuReadyMs!, ...times };
}

/** The machine's load average over the last minute (the benches share it with other work). */
const loadAverage = () => Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const cell = (xs: (number | undefined)[]) => (xs.every((x) => x !== undefined) && xs.length ? Math.round(median(xs as number[])) : '–');

export async function benchBoot(binary?: string): Promise<void> {
  const runs = smoke ? 1 : Number(flag('--runs')[0] ?? 3);
  const replay = !smoke && !process.argv.includes('--no-replay');
  const trees: [string, string][] = [...flag('--tree').map((t) => t.split('=') as [string, string]), [binary ? binary : 'this tree', ROOT]];
  const rows: Record<string, string | number>[] = [];
  const measured = trees.map(() => ({ cold: [] as BootTimes[], warm: [] as BootTimes[], load: [] as number[] }));
  for (const [, root] of trees) if (!existsSync(join(root, 'node_modules'))) symlinkSync(resolve(ROOT, 'node_modules'), join(root, 'node_modules'));
  // The trees take turns run by run, so a change in the machine's load falls on each alike.
  for (let i = 0; i < runs; i++) {
    for (const [t, [, root]] of trees.entries()) {
      const stateDir = mkdtempSync(join(tmpdir(), 'breakline-boot-'));
      try {
        measured[t]!.load.push(loadAverage());
        measured[t]!.cold.push(await timeBoot(stateDir, { root, binary: root === ROOT ? binary : undefined, memory: true, replay }));
        measured[t]!.warm.push(await timeBoot(stateDir, { root, binary: root === ROOT ? binary : undefined }));
      } finally {
        rmSync(stateDir, { recursive: true, force: true });
      }
    }
  }
  for (const [t, [name]] of trees.entries()) {
    const { cold, warm, load } = measured[t]!;
    rows.push({
      tree: name,
      runs,
      'load (1 min) each': load.map((l) => l.toFixed(1)).join(' / '),
      'cold ready ms': cell(cold.map((t) => t.readyMs)),
      'cold each': cold.map((t) => Math.round(t.readyMs)).join(' / '),
      'cold CPU to ready ms': cell(cold.map((t) => t.cpuReadyMs)),
      'warm ready ms': cell(warm.map((t) => t.readyMs)),
      'warm each': warm.map((t) => Math.round(t.readyMs)).join(' / '),
      'warm CPU to ready ms': cell(warm.map((t) => t.cpuReadyMs)),
      'readyz max ms (boot scans)': cell(cold.map((t) => t.readyzMaxMs)),
      'RSS ready MB': cell(cold.map((t) => t.rssReady)),
      'RSS after boot scans': cell(cold.map((t) => t.rssScans)),
      'RSS after boot replay': cell(cold.map((t) => t.rssReplay)),
      'RSS peak (replay)': cell(cold.map((t) => t.rssPeak)),
      'RSS warm ready': cell(warm.map((t) => t.rssReady)),
    });
  }
  const last = { cold: measured.at(-1)!.cold.at(-1)!, warm: measured.at(-1)!.warm.at(-1)! };
  printTable(`bench/boot — embedded defaults (PGlite, synthetic), medians; RSS columns from the cold runs${replay ? '' : ' (boot replay off)'}`, rows);
  console.log('\nwarm-up steps of the last cold run (this tree):');
  for (const step of last.cold.steps) console.log(`  ${step}`);
  console.log('warm-up steps of the last warm run (this tree):');
  for (const step of last.warm.steps) console.log(`  ${step}`);
}

if (import.meta.main) {
  const at = process.argv.indexOf('--binary');
  await benchBoot(at >= 0 ? process.argv[at + 1] : undefined);
}
