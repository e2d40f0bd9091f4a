/**
 * Same answers: starts this tree and another checkout (`--tree name=dir`, e.g.
 * main exported with `git archive main | tar -x -C /tmp/main`) side by side on
 * the embedded defaults (PGlite, synthetic market, fresh STATE_DIRs), at the
 * same moment so both see one market clock, waits for each server's boot
 * scans, and hashes what a change that only saves memory or time must leave
 * alone: every page of `/api/breakouts` for daily, 4h and 1h (ids and
 * timestamps dropped: they are per install and per run) and `/api/bars` of a
 * dozen symbols × 3 timeframes. Prints a table of the hashes; exits 1 when
 * they differ. Start it outside a minute boundary of the regular session (or
 * while the market is closed), when a quote does not move between the two
 * servers' reads.
 *
 *   bun run bench/same-answers.ts --tree main=/tmp/main [--port 4320] [--dump DIR]
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { printTable } from './lib';

const ROOT = resolve(import.meta.dir, '..');
const TIMEOUT_MS = 240_000;
const TIMEFRAMES = ['daily', '4h', '1h'] as const;
const SYMBOLS = ['SPY', 'QQQ', 'IWM', 'AAPL', 'MSFT', 'NVDA', 'AMZN', 'JPM', 'XOM', 'XLK', 'TSLA', 'KO'];
/** Fields that differ between two installs or two runs of the same scan, whatever the code. */
const DROPPED = new Set(['id', 'signalId', 'runId', 'requestId', 'createdAt', 'updatedAt', 'generatedAt', 'scannedAt', 'asOf', 'cachedAt', 'lastSeenAt', 'firstSeenAt', 'detectedAt', 'nextCursor', 'ageSeconds', 'ts', 'startedAt', 'finishedAt', 'durationMs']);

const flag = (name: string) => process.argv.flatMap((arg, i) => (arg === name && process.argv[i + 1] ? [process.argv[i + 1]!] : []));
/** `--dump DIR`: the canonical pages written there too, a file per server and timeframe, to diff when hashes differ. */
const DUMP = flag('--dump')[0];
if (DUMP) mkdirSync(DUMP, { recursive: true });

interface Server {
  name: string;
  url: string;
  stop: () => Promise<void>;
}

async function start(name: string, root: string, port: number): Promise<Server & { booted: Promise<void> }> {
  if (!existsSync(join(root, 'node_modules'))) symlinkSync(resolve(ROOT, 'node_modules'), join(root, 'node_modules'));
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-same-'));
  const proc = Bun.spawn([process.execPath, 'run', join(root, 'src/index.ts')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', PORT: String(port), HOST: '127.0.0.1', STATE_DIR: stateDir, LOG_LEVEL: 'info', SCAN_INTERVAL_SECONDS: '300', REPLAY_ON_BOOT: 'off', RATE_LIMIT_QUOTA: '100000' },
    stdout: 'ignore',
    stderr: 'pipe',
  });
  const booted = (async () => {
    let text = '';
    for await (const chunk of proc.stderr.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      if (text.includes('memory after the boot scans')) return;
    }
    throw new Error(`${name}: exited before its boot scans were done:\n${text.slice(-2000)}`);
  })();
  const stop = async () => {
    proc.kill('SIGTERM');
    await proc.exited;
    rmSync(stateDir, { recursive: true, force: true });
  };
  return { name, url: `http://127.0.0.1:${port}`, stop, booted };
}

/** The JSON with per-install fields dropped, keys in a fixed order. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) if (!DROPPED.has(key)) out[key] = canonical((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

async function json(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Hashes of every page of breakouts per timeframe and of the bars, with counts so an empty answer shows. */
async function answers(server: Server): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const timeframe of TIMEFRAMES) {
    const hasher = new Bun.CryptoHasher('sha256');
    let items = 0;
    for (let offset = 0; ; offset += 200) {
      const page = (await json(`${server.url}/api/breakouts?timeframe=${timeframe}&limit=200&offset=${offset}`)) as { items: unknown[]; pagination: { hasMore: boolean } };
      items += page.items.length;
      const text = JSON.stringify(canonical(page));
      hasher.update(text);
      if (DUMP) appendFileSync(join(DUMP, `${server.name.replace(/\W+/g, '-')}-breakouts-${timeframe}.json`), `${text}\n`);
      if (!page.pagination.hasMore) break;
    }
    out[`breakouts ${timeframe}`] = `${hasher.digest('hex').slice(0, 16)} (${items} items)`;
  }
  for (const timeframe of TIMEFRAMES) {
    const hasher = new Bun.CryptoHasher('sha256');
    let bars = 0;
    for (const symbol of SYMBOLS) {
      // The bars themselves keep their times: only the envelope's clock fields are dropped.
      const body = (await json(`${server.url}/api/bars?symbol=${symbol}&range=6mo&timeframe=${timeframe}`)) as { bars?: unknown[] } & Record<string, unknown>;
      const { bars: list = [], ...rest } = body;
      bars += list.length;
      hasher.update(JSON.stringify([list, canonical(rest)]));
    }
    out[`bars ${timeframe}`] = `${hasher.digest('hex').slice(0, 16)} (${bars} bars)`;
  }
  return out;
}

if (import.meta.main) {
  const trees = flag('--tree').map((t) => t.split('=') as [string, string]);
  if (trees.length === 0) throw new Error('usage: bun run bench/same-answers.ts --tree main=/tmp/main [--port 4320]');
  const port = Number(flag('--port')[0] ?? 4320);
  const servers = await Promise.all([...trees, ['this tree', ROOT] as [string, string]].map(([name, root], i) => start(name, resolve(root), port + i)));
  try {
    await Promise.race([Promise.all(servers.map((s) => s.booted)), Bun.sleep(TIMEOUT_MS).then(() => Promise.reject(new Error('boot scans not done in time')))]);
    const hashes = await Promise.all(servers.map(answers));
    const keys = Object.keys(hashes[0]!);
    const rows = keys.map((key) => ({ answer: key, ...Object.fromEntries(servers.map((s, i) => [s.name, hashes[i]![key]!])), same: hashes.every((h) => h[key] === hashes[0]![key]) ? 'yes' : 'NO' }));
    printTable('bench/same-answers — embedded defaults, both servers started together; ids and timestamps dropped', rows);
    const empty = rows.some((r) => / \(0 (items|bars)\)/.test(String(r[servers[0]!.name as keyof typeof r])));
    if (empty) console.log('note: an answer is empty on both sides: its hash proves little');
    process.exitCode = rows.every((r) => r.same === 'yes') ? 0 : 1;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
