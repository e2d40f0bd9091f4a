/**
 * Boot: how soon a started server is live (`/livez` 200) and ready (`/readyz`
 * 200), on the embedded defaults (PGlite, synthetic market). Each run starts
 * `bun run src/index.ts` (or the executable given with `--binary PATH`) on a
 * free loopback port with a STATE_DIR under /tmp and polls both probes every
 * 10 ms. "cold" runs start from an empty STATE_DIR (initdb, migrations, the
 * first universe scan); "warm" ones restart on the state the cold run left
 * (the usual restart). Prints the medians, and the warm-up steps the server
 * logged in its last warm run. Run: `bun run bench/boot.ts [--smoke] [--binary dist/breakline]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { printTable, smoke } from './lib';

const ROOT = resolve(import.meta.dir, '..');
const TIMEOUT_MS = 180_000;

interface BootTimes {
  liveMs: number;
  readyMs: number;
  steps: string[];
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

/** Starts the server on `stateDir`, times its probes, stops it (SIGTERM). */
export async function timeBoot(stateDir: string, binary?: string): Promise<BootTimes> {
  const port = freePort();
  const started = performance.now();
  const command = binary ? [resolve(binary)] : [process.execPath, 'run', join(ROOT, 'src/index.ts')];
  const proc = Bun.spawn(command, {
    cwd: binary ? stateDir : ROOT,
    // The embedded defaults, whatever this shell points at (CI runs the benches with DATABASE_URL set).
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PORT: String(port), HOST: '127.0.0.1', STATE_DIR: stateDir, LOG_LEVEL: 'info', SCAN_INTERVAL_SECONDS: '300' },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const log = new Response(proc.stderr).text();
  let liveMs = NaN;
  let readyMs = NaN;
  try {
    while (performance.now() - started < TIMEOUT_MS && Number.isNaN(readyMs)) {
      if (Number.isNaN(liveMs) && (await status(`http://127.0.0.1:${port}/livez`)) === 200) liveMs = performance.now() - started;
      if (!Number.isNaN(liveMs) && (await status(`http://127.0.0.1:${port}/readyz`)) === 200) readyMs = performance.now() - started;
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${await log}`);
      await Bun.sleep(10);
    }
    if (Number.isNaN(readyMs)) throw new Error(`not ready within ${TIMEOUT_MS} ms`);
  } finally {
    proc.kill('SIGTERM');
    await proc.exited;
  }
  const steps = (await log)
    .split('\n')
    .filter((line) => line.includes('warm-up:') && line.includes(' done'))
    .map((line) => {
      const { msg, tookMs } = JSON.parse(line) as { msg: string; tookMs: number };
      return `${msg.replace(/^warm-up: /, '').replace(/ done$/, '')}: ${tookMs} ms`;
    });
  return { liveMs, readyMs, steps };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchBoot(binary?: string): Promise<void> {
  const runs = smoke ? 1 : 3;
  const cold: BootTimes[] = [];
  const warm: BootTimes[] = [];
  for (let i = 0; i < runs; i++) {
    const stateDir = mkdtempSync(join(tmpdir(), 'breakline-boot-'));
    try {
      cold.push(await timeBoot(stateDir, binary));
      warm.push(await timeBoot(stateDir, binary));
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  }
  const row = (label: string, times: BootTimes[]) => ({
    start: label,
    runs: times.length,
    'live p50 ms': Math.round(median(times.map((t) => t.liveMs))),
    'ready p50 ms': Math.round(median(times.map((t) => t.readyMs))),
    'ready each ms': times.map((t) => Math.round(t.readyMs)).join(' / '),
  });
  printTable(`bench/boot — ${binary ? binary : 'bun run src/index.ts'}, embedded defaults (PGlite, synthetic)`, [row('cold (empty STATE_DIR)', cold), row('warm (restart)', warm)]);
  console.log('\nwarm-up steps of the last cold run:');
  for (const step of cold.at(-1)!.steps) console.log(`  ${step}`);
  console.log('warm-up steps of the last warm run:');
  for (const step of warm.at(-1)!.steps) console.log(`  ${step}`);
}

if (import.meta.main) {
  const at = process.argv.indexOf('--binary');
  await benchBoot(at >= 0 ? process.argv[at + 1] : undefined);
}
