/**
 * bench/compression: how long the event loop is held while a large JSON body
 * (a ledger page) is answered compressed for the first time, 5 callers at
 * once asking brotli — through each tree's own plugins/representation on an
 * in-process Elysia app (issue 27: large bodies are compressed on the thread
 * pool). Each round gives every tree a fresh body (another ETag, so nothing
 * is held yet); per tree, the median and the worst over the rounds of:
 *
 * - the longest gap between two turns of a 1 ms timer (wall time: on a busy
 *   machine it also counts waiting for a core),
 * - the most CPU the main thread spent between two turns
 *   (process.threadCpuUsage: what this process itself held the loop for).
 *
 * `--tree name=dir` (repeatable) adds another checkout (e.g. main exported
 * with `git archive main | tar -x -C /tmp/main`; its node_modules linked to
 * this tree's); `--body FILE` a JSON body to send (e.g. a page bench/stall
 * `--seeded --dump DIR` wrote), else a ledger-like page of 4,000 records
 * (~0.9 MB); `--rounds N` (12). Prints; asserts nothing; the load average with it.
 *
 *   bun run bench/compression.ts --tree main=/tmp/main
 */
import { existsSync, symlinkSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { printTable } from './lib';

const ROOT = resolve(import.meta.dir, '..');
const CALLERS = 5;

function flag(name: string): string[] {
  return process.argv.flatMap((arg, i) => (arg === name && process.argv[i + 1] ? [process.argv[i + 1]!] : []));
}

/** A page shaped like the ledger's: sequence numbers, 64-hex hashes, symbols, scores, timestamps. */
function ledgerLikePage(records: number): string {
  const hex = (i: number) => Bun.hash(String(i)).toString(16).padStart(16, '0').repeat(4);
  const rows = Array.from({ length: records }, (_, i) => ({
    seq: i + 1,
    hash: hex(i),
    prevHash: hex(i - 1),
    kind: i % 3 === 0 ? 'signal' : 'state',
    symbol: ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'GOOGL'][i % 5],
    patternType: ['flat_base', 'vcp', 'bull_flag'][i % 3],
    score: (i * 37) % 1000 / 10,
    createdAt: new Date(Date.UTC(2026, 0, 2) + i * 3_600_000).toISOString(),
  }));
  return JSON.stringify({ count: records, records: rows });
}

interface Tree {
  name: string;
  representation: typeof import('../src/plugins/representation');
  Elysia: typeof import('elysia').Elysia;
}

async function loadTree(name: string, dir: string): Promise<Tree> {
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { name, representation: await import(join(dir, 'src/plugins/representation.ts')), Elysia: (await import(join(dir, 'node_modules/elysia'))).Elysia };
}

const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** The worst wall gap and main-thread CPU between two turns of a 1 ms timer while `work` runs. */
async function held(work: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  let last = { at: performance.now(), cpu: threadCpuMs() };
  const worst = { wallMs: 0, cpuMs: 0 };
  const timer = setInterval(() => {
    const now = { at: performance.now(), cpu: threadCpuMs() };
    worst.wallMs = Math.max(worst.wallMs, now.at - last.at);
    worst.cpuMs = Math.max(worst.cpuMs, now.cpu - last.cpu);
    last = now;
  }, 1);
  await Bun.sleep(20);
  Object.assign(worst, { wallMs: 0, cpuMs: 0 });
  last = { at: performance.now(), cpu: threadCpuMs() };
  await work();
  await Bun.sleep(5);
  clearInterval(timer);
  return worst;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const trees = [...(await Promise.all(flag('--tree').map((spec) => loadTree(spec.split('=')[0]!, resolve(spec.slice(spec.indexOf('=') + 1)))))), await loadTree('this tree', ROOT)];
const bodyFile = flag('--body')[0];
const page = bodyFile ? await Bun.file(bodyFile).text() : ledgerLikePage(4000);
const rounds = Number(flag('--rounds')[0] ?? 12);
const results = new Map(trees.map((t) => [t.name, { wallMs: [] as number[], cpuMs: [] as number[] }]));

for (let round = 0; round < rounds; round++) {
  for (const tree of trees) {
    const { representation: r } = tree;
    const body = page + ' '.repeat(round + 1); // another ETag each round: nothing held yet
    const app = new tree.Elysia().use(r.representation(new r.CompressedBodies(64 * 2 ** 20))).get('/page', () => new r.JsonResponse(body));
    const ask = () => app.handle(new Request('http://localhost/page', { headers: { 'accept-encoding': 'br' } }));
    const worst = await held(async () => {
      const answers = await Promise.all(Array.from({ length: CALLERS }, ask));
      for (const answer of answers) if (answer.headers.get('content-encoding') !== 'br') throw new Error(`${tree.name}: answered ${answer.status} without brotli`);
    });
    results.get(tree.name)!.wallMs.push(worst.wallMs);
    results.get(tree.name)!.cpuMs.push(worst.cpuMs);
  }
}

printTable(
  `Event loop held while a ${(page.length / 1000).toFixed(0)} KB body is answered brotli for the first time, ${CALLERS} callers at once (${rounds} rounds; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})`,
  trees.map(({ name }) => {
    const { wallMs, cpuMs } = results.get(name)!;
    return { tree: name, 'loop gap ms, median': median(wallMs), 'loop gap ms, worst': Math.max(...wallMs), 'main thread ms, median': median(cpuMs), 'main thread ms, worst': Math.max(...cpuMs) };
  }),
);
