/**
 * The executable stands alone (the long run: it builds the 130 MB executable
 * and boots it cold, about half a minute). `npm run build`'s script builds
 * into a temporary directory; the executable is copied into another one with
 * nothing beside it (no node_modules, no sources) and started there on a
 * loopback port: it must become ready (readiness runs a task through a worker
 * thread and loads the first universe scan, which runs in the worker pool),
 * answer /api/breakouts with signals, report the pool ok, serve the docs
 * UI with its assets from inside itself, and hold its embedded database with
 * the flock of cli/state-lock (bun:ffi in the executable).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '../../..');
const work = mkdtempSync(join(tmpdir(), 'breakline-standalone-'));
const elsewhere = join(work, 'elsewhere');
let server: ReturnType<typeof Bun.spawn> | undefined;
let base = '';
let log: Promise<string> = Promise.resolve('');

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

beforeAll(async () => {
  const build = Bun.spawnSync([process.execPath, 'run', join(ROOT, 'scripts/build.ts'), '--outfile', join(work, 'build', 'breakline')], { cwd: ROOT, stderr: 'pipe' });
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
  mkdirSync(elsewhere);
  copyFileSync(join(work, 'build', 'breakline'), join(elsewhere, 'breakline'));
  Bun.spawnSync(['chmod', '+x', join(elsewhere, 'breakline')]);
  const port = freePort();
  base = `http://127.0.0.1:${port}`;
  server = Bun.spawn([join(elsewhere, 'breakline')], {
    cwd: elsewhere,
    env: { PATH: '/usr/bin:/bin', PORT: String(port), HOST: '127.0.0.1', STATE_DIR: join(elsewhere, 'state'), POOL_SIZE: '2', LOG_LEVEL: 'info' },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  log = new Response(server.stderr as ReadableStream).text();
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    const ready = await fetch(`${base}/readyz`).then((r) => r.status, () => 0);
    if (ready === 200) return;
    if (server.exitCode !== null) throw new Error(`the executable exited: ${await log}`);
    await Bun.sleep(100);
  }
  throw new Error(`not ready within 240 s: ${(await fetch(`${base}/readyz`).then((r) => r.text(), String))}`);
}, 300_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await server?.exited;
  rmSync(work, { recursive: true, force: true });
});

describe('dist/breakline copied where nothing else is', () => {
  it('has nothing beside it, and looks piscina’s worker bootstrap up inside itself', () => {
    expect(readdirSync(elsewhere).sort()).toEqual(['breakline', 'state']);
    const binary = readFileSync(join(elsewhere, 'breakline'));
    expect(binary.indexOf('(0, node_path_1.resolve)(__dirname, "worker.js")')).toBe(-1);
    expect(binary.indexOf('filename: "/$bunfs/root/node_modules/piscina/dist/worker.js"')).toBeGreaterThan(0);
  });

  it('runs scans in its worker pool: /api/breakouts answers with signals, /api/health says the pool is ok', async () => {
    const breakouts = await fetch(`${base}/api/breakouts`);
    expect(breakouts.status).toBe(200);
    const body = (await breakouts.json()) as { rankedSignals: { symbol: string }[] };
    expect(body.rankedSignals.length).toBeGreaterThan(0);
    const health = (await (await fetch(`${base}/api/health`)).json()) as { checks: Record<string, string> };
    expect(health.checks.pool).toBe('ok');
    expect(health.checks.db).toBe('ok');
    const replay = await fetch(`${base}/api/breakouts?asOf=2026-06-30&symbols=AAPL,MSFT,NVDA`);
    expect(replay.status).toBe(200); // an on-demand scan in the pool, after boot
  });

  it('serves the docs UI and its assets from inside itself', async () => {
    const html = await (await fetch(`${base}/docs`)).text();
    const assets = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBe(3); // Swagger UI's bundle and stylesheet, and the page's init.js
    for (const url of assets) {
      const asset = await fetch(`${base}${url}`);
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(url === '/docs/init.js' ? 20 : 100_000);
    }
  });

  it('serves the web console and every file it loads from inside itself (embedded at build time, never bundled here)', async () => {
    const assets = (html: string, rel: RegExp) => [...html.matchAll(/<(script|link)\b([^>]*)\b(?:src|href)="(\/console\/assets\/[^"]+)"/g)].filter((m) => rel.test(`${m[1]} ${m[2]}`)).map((m) => m[3]!);
    const html = await (await fetch(`${base}/console`)).text();
    // One entry script and one stylesheet; the view's modules are preloaded beside them (console/page).
    expect(assets(html, /^script/)).toHaveLength(1);
    expect(assets(html, /stylesheet/)).toHaveLength(1);
    const main = await fetch(`${base}${assets(html, /^script/)[0]}`);
    expect(main.status).toBe(200);
    // A signal's page preloads its modules and the chart library (lightweight-charts, the largest file).
    const signalPage = await (await fetch(`${base}/console/signals/SPY-daily-2026-01-02`)).text();
    const preloads = assets(signalPage, /modulepreload/);
    expect(preloads.length).toBeGreaterThan(0);
    const urls = [...new Set([...assets(html, /./), ...assets(signalPage, /./)])];
    for (const url of urls) expect((await fetch(`${base}${url}`)).status).toBe(200);
    const sizes = await Promise.all(preloads.map(async (url) => (await (await fetch(`${base}${url}`)).arrayBuffer()).byteLength));
    expect(Math.max(...sizes)).toBeGreaterThan(100_000); // lightweight-charts
  });

  it('holds the embedded database with its flock (bun:ffi inside the executable): a second one on the same state refuses, exit 75', () => {
    const second = Bun.spawnSync([join(elsewhere, 'breakline')], { cwd: elsewhere, env: { PATH: '/usr/bin:/bin', PORT: String(freePort()), HOST: '127.0.0.1', STATE_DIR: join(elsewhere, 'state'), LOG_LEVEL: 'silent' }, stderr: 'pipe' });
    expect(second.exitCode).toBe(75);
    expect(second.stderr.toString()).toContain(`refusing to start a server: a server at ${base}`);
  });

  it('logged its warm-up steps', async () => {
    server?.kill('SIGTERM');
    await server?.exited;
    const lines = await log;
    expect(lines).toContain('warm-up: opening the database');
    expect(lines).toContain('warm-up: loading the latest daily scan');
    expect(lines).toContain('breakline ready');
  });
});
