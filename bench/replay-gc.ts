/**
 * bench/replay-gc: what the first start's boot replay does to the server's
 * main thread (issue 27) — the stretches it works without yielding (the
 * collector's among them) and its heap — for one or more trees side by side:
 * every tree's server starts at once on the embedded defaults from an empty
 * STATE_DIR (so each runs its boot replay under the same load), and from its
 * `replay started` each is watched for `--seconds` (90) through the
 * bench/loop-stretches and bench/replay-gc-probe preloads. Printed per tree:
 * the stretches over 50 and 100 ms and the longest, the main thread's CPU
 * per 1,000 replay records written (read from the stopped server's
 * database: a tree that writes faster does more in the window), the
 * JavaScript heap (the collector's, without the ArrayBuffers and shared bar
 * store it is told about) median and largest, and its objects, the load
 * average beside. Prints; asserts nothing.
 *
 *   bun run bench/replay-gc.ts --tree main=/tmp/main --tree this=. [--seconds 90]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDatabase } from '../src/db/client';
import { replayRuns } from '../src/db/schema';
import { printTable } from './lib';

const ROOT = resolve(import.meta.dir, '..');
const seconds = Number(flag('--seconds')[0] ?? 90);
const trees = flag('--tree').map((t) => {
  const [name, dir] = t.split('=');
  return { name: name!, root: resolve(dir!) };
});
if (trees.length === 0) trees.push({ name: 'this', root: ROOT });

function flag(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === name && process.argv[i + 1] ? [process.argv[i + 1]!] : []));
}

interface Watched {
  name: string;
  dir: string;
  proc: ReturnType<typeof Bun.spawn>;
  started?: number;
}

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function start(name: string, root: string): Promise<Watched> {
  const dir = mkdtempSync(join(tmpdir(), `replay-gc-${name}-`));
  const preloads = ['bench/loop-stretches.ts', 'bench/replay-gc-probe.ts'].map((p) => `--preload=${join(ROOT, p)}`);
  const proc = Bun.spawn([process.execPath, ...preloads, 'run', join(root, 'src/index.ts'), 'serve'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: String(await freePort()), HOST: '127.0.0.1', STATE_DIR: join(dir, 'state'), LOG_LEVEL: 'info', REPLAY_GC_DIR: dir, BENCH_STALL_STRETCHES_DIR: dir },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const watched: Watched = { name, dir, proc };
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.includes('"msg":"replay started"')) watched.started ??= Date.now();
      }
    }
  })();
  return watched;
}

const quantile = (xs: number[], q: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]! : 0);

/** The replay records the stopped server wrote (its boot replay's run). */
async function recordsWritten(w: Watched): Promise<number> {
  const database = await openDatabase({ dataDir: join(w.dir, 'state', 'pgdata') });
  try {
    const runs = await database.db.select({ records: replayRuns.records }).from(replayRuns);
    return runs.reduce((sum, r) => sum + r.records, 0);
  } finally {
    await database.close();
  }
}

/** The lines of each of a server's files named `prefix-PID.jsonl` in its directory. */
function linesOf<T>(w: Watched, prefix: string): T[] {
  return readdirSync(w.dir)
    .filter((f) => f.startsWith(`${prefix}-`))
    .flatMap((f) => readFileSync(join(w.dir, f), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as T));
}

function summary(w: Watched, from: number, to: number, records: number): Record<string, string | number> {
  const stretches = linesOf<{ from: number; cpuMs: number }>(w, 'stretches')
    .filter((l) => l.from >= from && l.from <= to)
    .map((l) => l.cpuMs);
  const heaps = linesOf<{ at: number; heapSize: number; extra: number; objects: number; cpuMs: number }>(w, 'heap').filter((l) => l.at >= from && l.at <= to);
  const cpuMs = heaps.length > 1 ? heaps.at(-1)!.cpuMs - heaps[0]!.cpuMs : 0;
  const js = heaps.map((h) => (h.heapSize - h.extra) / 1e6);
  const mb = (x: number) => Math.round(x);
  return {
    tree: w.name,
    'stretches >50 ms': stretches.filter((x) => x > 50).length,
    '>100 ms': stretches.filter((x) => x > 100).length,
    'longest ms': Math.max(0, ...stretches),
    'records written': records,
    'main thread CPU ms / 1k records': records ? Math.round((cpuMs / records) * 1000) : '–',
    'stretches >50 ms / 10k records': records ? Math.round((stretches.filter((x) => x > 50).length / records) * 1e5) / 10 : '–',
    'JS heap MB median': mb(quantile(js, 0.5)),
    'JS heap MB max': mb(Math.max(0, ...js)),
    'objects max (k)': Math.round(Math.max(0, ...heaps.map((h) => h.objects)) / 1000),
    'heap with extra MB': mb(quantile(heaps.map((h) => h.heapSize / 1e6), 0.5)),
  };
}

const load = () => loadavg().map((x) => x.toFixed(1)).join(' / ');
console.log(`load average at the start: ${load()}`);
const watched = await Promise.all(trees.map((t) => start(t.name, t.root)));
try {
  for (const w of watched) {
    while (w.started === undefined) {
      if (w.proc.exitCode !== null) throw new Error(`${w.name}: the server exited with ${w.proc.exitCode}`);
      await Bun.sleep(250);
    }
  }
  console.log(`watching ${seconds} s of the boot replay (load ${load()})`);
  const rows: Record<string, string | number>[] = [];
  for (const w of [...watched].sort((a, b) => a.started! - b.started!)) {
    await Bun.sleep(Math.max(0, w.started! + seconds * 1000 - Date.now()));
    w.proc.kill('SIGTERM'); // the slice in flight commits; what is in the database is what the window wrote
    await w.proc.exited;
  }
  const ended = load();
  for (const w of watched) rows.push(summary(w, w.started!, w.started! + seconds * 1000, await recordsWritten(w)));
  printTable(`boot replay, first ${seconds} s of each tree's (its main thread; load average ${ended})`, rows);
} finally {
  for (const w of watched) {
    if (w.proc.exitCode === null) w.proc.kill('SIGTERM');
    await w.proc.exited;
    rmSync(w.dir, { recursive: true, force: true });
  }
}
