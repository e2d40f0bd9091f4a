/**
 * The web console: what it costs and how it scores, on the embedded defaults.
 * Starts `bun run src/index.ts` (or `--binary dist/breakline`) on a fresh
 * STATE_DIR and a free loopback port, waits for ready and for the boot scans
 * of the other timeframes (the first start's boot replay, minutes of
 * background work, is left out: REPLAY_ON_BOOT=off), then:
 *
 * 1. the bundle: the first request for /console (from source it bundles the
 *    console then: console/bundle; the executable serves what it embedded),
 *    and `bundleConsole()` in this process, with the files' sizes;
 * 2. first render of the signals page in Debian's Chromium (playwright-core):
 *    from navigation start to the first row of the ranked list drawn, in a
 *    fresh browser context each run (nothing cached), median of the runs,
 *    beside the floor under it: the API's own answer for the first page
 *    (`/api/breakouts?limit=50`, fetched by this process) in the same run,
 *    and the CPU the page's renderer used to get there (what a busy machine
 *    leaves nearly as it is, where it stretches the wall-clock times);
 * 3. Lighthouse (npm `lighthouse`, run by Node on /usr/bin/chromium) on each
 *    page, mobile (its default) and desktop presets: performance and
 *    accessibility scores, first and largest contentful paint.
 *
 * Prints one table each, with the load average; exits 1 when a score is below
 * 90 (issue 33's bar) so a run says plainly whether it held.
 *
 * `--compare BEFORE` sets two running servers side by side in one run (this
 * tree's, or `--url AFTER`, against BEFORE, e.g. one started from a worktree
 * of main): the first render of the signals page and Lighthouse on each page,
 * the two trees taking turns page by page (the load drifts; turns spread it
 * over both), beside the floor: Lighthouse on an empty static page served by
 * this process in the same run, the best a page can score on the machine as
 * loaded. `--pages signals,record` and `--presets mobile` keep a run short.
 *
 *   bun run bench/console.ts [--smoke] [--runs N] [--binary dist/breakline]
 *   bun run bench/console.ts --compare http://127.0.0.1:PORT [--url http://127.0.0.1:PORT] [--pages …] [--presets …] [--runs N]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { bundleConsole } from '../src/console/bundle';
import { printTable, smoke } from './lib';

const ROOT = resolve(import.meta.dir, '..');
const CHROMIUM = '/usr/bin/chromium';
const LIGHTHOUSE = join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js');
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};

async function startServer(): Promise<{ base: string; stop: () => Promise<void>; logs: string[] }> {
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-console-bench-'));
  const port = 20000 + Math.floor(Math.random() * 20000);
  const binary = arg('--binary');
  const command = binary ? [resolve(binary), 'serve'] : [process.execPath, 'run', 'src/index.ts'];
  const proc = Bun.spawn(command, { cwd: binary ? stateDir : ROOT, env: { ...process.env, PORT: String(port), STATE_DIR: stateDir, LOG_LEVEL: 'info', REPLAY_ON_BOOT: 'off' }, stdout: 'ignore', stderr: 'pipe' });
  const logs: string[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of proc.stderr) logs.push(...decoder.decode(chunk).split('\n').filter(Boolean));
  })();
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  while ((await fetch(`${base}/readyz`).then((r) => r.status, () => 0)) !== 200) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`the server did not get ready:\n${logs.slice(-20).join('\n')}`);
    await Bun.sleep(100);
  }
  while (!logs.some((line) => line.includes('after ready: the boot scans of every timeframe done'))) {
    if (Date.now() > deadline) throw new Error('the boot scans did not finish');
    await Bun.sleep(100);
  }
  return {
    base,
    logs,
    stop: async () => {
      proc.kill('SIGTERM');
      await proc.exited;
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * ms from navigation start to the first row of the signals table, and to the first contentful paint (the page's own
 * "Loading…"), in a fresh context; with the CPU the page's renderer spent to get there (Chromium's own counters,
 * `Performance.getMetrics` over CDP: `ThreadTime`, its main thread; `ProcessTime`, the whole renderer), which a
 * busy machine does not inflate as it does the wall-clock times.
 */
async function firstRender(base: string, runs: number): Promise<{ rows: number[]; paints: number[]; threadMs: number[]; processMs: number[] }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const times: number[] = [];
  const paints: number[] = [];
  const threadMs: number[] = [];
  const processMs: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      const cpu = async () => {
        const { metrics } = await cdp.send('Performance.getMetrics');
        const of = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? Number.NaN) * 1000;
        return { thread: of('ThreadTime'), process: of('ProcessTime') };
      };
      const before = await cpu();
      await page.goto(`${base}/console/signals`);
      await page.locator('table.signals tbody tr').first().waitFor({ timeout: 60_000 });
      times.push(await page.evaluate(() => performance.now()));
      const after = await cpu();
      threadMs.push(after.thread - before.thread);
      processMs.push(after.process - before.process);
      paints.push(await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN));
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { rows: times, paints, threadMs, processMs };
}

interface LighthouseScores {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** Cumulative layout shift: content moving as the page loads (a quarter of the performance score, whatever the load). */
  cls: number;
  /**
   * Lighthouse's measure of the host's CPU during the run (`environment.benchmarkIndex`; Chrome DevTools' calibration
   * takes 1000 for a mid-tier phone such as a Pixel 5, 264 for a low-tier one): a busy machine scores low here, and
   * its performance scores with it.
   */
  benchmarkIndex: number;
}

async function lighthouse(url: string, preset: 'mobile' | 'desktop'): Promise<LighthouseScores> {
  const flags = ['--output=json', '--output-path=stdout', '--quiet', '--only-categories=performance,accessibility', '--chrome-flags=--headless=new --no-sandbox --disable-gpu'];
  if (preset === 'desktop') flags.push('--preset=desktop');
  const proc = Bun.spawn(['node', LIGHTHOUSE, url, ...flags], { env: { ...process.env, CHROME_PATH: CHROMIUM }, stdout: 'pipe', stderr: 'pipe' });
  const [text, errors] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  if ((await proc.exited) !== 0) throw new Error(`lighthouse failed on ${url}: ${errors.slice(-500)}`);
  const report = JSON.parse(text) as { categories: Record<string, { score: number }>; audits: Record<string, { numericValue: number }>; environment: { benchmarkIndex: number } };
  return {
    performance: Math.round(report.categories.performance!.score * 100),
    accessibility: Math.round(report.categories.accessibility!.score * 100),
    fcpMs: Math.round(report.audits['first-contentful-paint']!.numericValue),
    lcpMs: Math.round(report.audits['largest-contentful-paint']!.numericValue),
    tbtMs: Math.round(report.audits['total-blocking-time']!.numericValue),
    cls: Number(report.audits['cumulative-layout-shift']!.numericValue.toFixed(3)),
    benchmarkIndex: Math.round(report.environment.benchmarkIndex),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () => loadavg().map((n) => n.toFixed(1)).join(' ');

const PAGES = { signals: '/console/signals', record: '/console/record', market: '/console/market', account: '/console/account' } as const;

/** An empty page (a heading and a line of text) on a port of this process: the floor under every page's score. */
function floorServer(): { url: string; stop: () => void } {
  const html = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>floor</title></head><body><h1>Floor</h1><p>An empty static page.</p></body></html>';
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }) });
  return { url: `http://127.0.0.1:${server.port}/`, stop: () => server.stop(true) };
}

/** Two servers side by side in one run (`--compare BEFORE [--url AFTER]`): first render and Lighthouse, taking turns. */
async function compare(before: string, after: string): Promise<void> {
  const runs = Number(arg('--runs') ?? 3);
  const pages = (arg('--pages') ?? Object.keys(PAGES).join(',')).split(',') as (keyof typeof PAGES)[];
  const presets = (arg('--presets') ?? 'mobile,desktop').split(',') as ('mobile' | 'desktop')[];
  const trees = [
    { tree: 'before', base: before },
    { tree: 'after', base: after },
  ];
  const renders: Record<string, string | number>[] = [];
  const measured = new Map<string, Awaited<ReturnType<typeof firstRender>>>();
  for (let run = 0; run < runs; run++) {
    for (const { tree, base } of run % 2 === 0 ? trees : [...trees].reverse()) {
      const one = await firstRender(base, 1);
      const all = measured.get(tree) ?? { rows: [], paints: [], threadMs: [], processMs: [] };
      for (const key of ['rows', 'paints', 'threadMs', 'processMs'] as const) all[key].push(...one[key]);
      measured.set(tree, all);
    }
  }
  for (const { tree } of runs > 0 ? trees : []) {
    const m = measured.get(tree)!;
    renders.push({ tree, runs: m.rows.length, firstRowMs: median(m.rows).toFixed(0), firstPaintMs: median(m.paints).toFixed(0), mainThreadCpuMs: median(m.threadMs).toFixed(0), rendererCpuMs: median(m.processMs).toFixed(0) });
  }
  if (runs > 0) printTable(`console: first render of the signals page, medians, turns taken (load ${load()})`, renders);

  const floor = floorServer();
  const rows: Record<string, string | number>[] = [];
  try {
    for (const [at, page] of pages.entries()) {
      for (const preset of presets) {
        for (const { tree, base } of at % 2 === 0 ? trees : [...trees].reverse()) {
          rows.push({ page, preset, tree, ...(await lighthouse(`${base}${PAGES[page]}`, preset)), load: load() });
        }
      }
    }
    for (const preset of presets) rows.push({ page: 'floor: empty static page', preset, tree: '—', ...(await lighthouse(floor.url, preset)), load: load() });
  } finally {
    floor.stop();
  }
  printTable('console: Lighthouse, before and after in one run, with the floor', rows);
}

export async function benchConsole(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`console: skipped (${CHROMIUM} is missing; Debian: apt-get install chromium)`);
    return;
  }
  const before = arg('--compare');
  if (before) {
    const given = arg('--url');
    const server = given ? undefined : await startServer();
    try {
      await compare(before, given ?? server!.base);
    } finally {
      await server?.stop();
    }
    return;
  }
  const runs = Number(arg('--runs') ?? (smoke ? 2 : 5));
  const server = await startServer();
  try {
    const started = performance.now();
    const page = await fetch(`${server.base}/console`);
    await page.text();
    const firstPageMs = performance.now() - started;
    const again = performance.now();
    await (await fetch(`${server.base}/console`)).text();
    const secondPageMs = performance.now() - again;
    const bundling = performance.now();
    const files = await bundleConsole();
    const bundleMs = performance.now() - bundling;
    const logged = server.logs.find((line) => line.includes('console: files ready'));
    printTable(`console: its files (load ${load()})`, [
      { what: 'first GET /console (bundles from source, or the executable’s embedded files)', ms: firstPageMs.toFixed(0) },
      { what: 'second GET /console', ms: secondPageMs.toFixed(0) },
      { what: 'files ready, as the server logged it (bundle + compress)', ms: logged ? String(JSON.parse(logged).ms) : '—' },
      { what: `bundleConsole() in this process: ${files.map((f) => `${f.name} ${(f.text.length / 1024).toFixed(0)} KiB`).join(', ')}`, ms: bundleMs.toFixed(0) },
    ]);

    const { rows: times, paints, threadMs, processMs } = await firstRender(server.base, runs);
    const floor: number[] = [];
    for (let run = 0; run < runs; run++) {
      const asked = performance.now();
      await (await fetch(`${server.base}/api/breakouts?timeframe=daily&limit=50`, { headers: { 'accept-encoding': 'br' } })).arrayBuffer();
      floor.push(performance.now() - asked);
    }
    printTable(`console: first render of the signals page, fresh context per run (load ${load()})`, [
      { what: 'navigation start → first row of the list drawn', runs: times.length, medianMs: median(times).toFixed(0), minMs: Math.min(...times).toFixed(0), maxMs: Math.max(...times).toFixed(0) },
      { what: 'navigation start → first contentful paint (the page shell)', runs: paints.length, medianMs: median(paints).toFixed(0), minMs: Math.min(...paints).toFixed(0), maxMs: Math.max(...paints).toFixed(0) },
      { what: 'floor: GET /api/breakouts?limit=50 alone', runs: floor.length, medianMs: median(floor).toFixed(0), minMs: Math.min(...floor).toFixed(0), maxMs: Math.max(...floor).toFixed(0) },
      { what: 'CPU of the page’s renderer to the first row: its main thread', runs: threadMs.length, medianMs: median(threadMs).toFixed(0), minMs: Math.min(...threadMs).toFixed(0), maxMs: Math.max(...threadMs).toFixed(0) },
      { what: 'CPU of the page’s renderer to the first row: the whole process', runs: processMs.length, medianMs: median(processMs).toFixed(0), minMs: Math.min(...processMs).toFixed(0), maxMs: Math.max(...processMs).toFixed(0) },
    ]);

    const pages = smoke ? ['/console/signals'] : ['/console/signals', '/console/record', '/console/market', '/console/account'];
    const rows: Record<string, string | number>[] = [];
    let below = false;
    for (const path of pages) {
      for (const preset of ['mobile', 'desktop'] as const) {
        const scores = await lighthouse(`${server.base}${path}`, preset);
        below ||= scores.performance < 90 || scores.accessibility < 90;
        rows.push({ page: path, preset, ...scores, load: load() });
      }
    }
    printTable('console: Lighthouse (performance and accessibility ≥ 90 wanted)', rows);
    if (below) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

if (import.meta.main) await benchConsole();
