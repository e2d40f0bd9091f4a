/**
 * bench/book-fold: what a trade book folded as records are appended costs
 * the server's thread (issue 27, ledger/book): the fold of a replay slice's
 * signal and outcome records (their facts parsed and held as columns) per
 * 1,000 records, and for a boot replay's size of book (128k signals, by
 * default) the snapshot kept with its head (ledger/book-snapshot: made, and
 * read back with the signal lookup rebuilt, as a restart resumes it) — each
 * the longest of `--runs` (5), in one stretch of the thread, with the load
 * average beside. Prints; asserts nothing.
 *
 *   bun run bench/book-fold.ts [--signals 128279] [--runs 5]
 */
import { loadavg } from 'node:os';
import type { LedgerRepository } from '../src/db/repositories/ledger';
import { entryText } from '../src/db/repositories/ledger-text';
import { TradeBook } from '../src/ledger/book';
import { columnsOf, snapshotBytes } from '../src/ledger/book-snapshot';
import { GENESIS_HASH } from '../src/ledger/chain';
import { seedRecords, seedSessions } from '../test/helpers/ledger-seed';
import { measuredStretch, printTable } from './lib';

const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) || fallback : fallback);
const signals = arg('--signals', 128_279);
const runs = arg('--runs', 5);

const sessions = await seedSessions();
/** The records as the appender tells them (ledger-feed): their rows' fields and their facts, in seq order. */
const told = seedRecords(0, signals, sessions, 'rpl_bench')
  .map((entry) => ({ entry, text: entryText(entry, 'replay') }))
  .filter(({ text }) => text.facts !== null)
  .map(({ entry, text }, k) => ({
    row: { seq: k + 2, kind: entry.kind, signalId: entry.signalId, replayId: 'rpl_bench', detectedAt: entry.detectedAt ?? null, patternType: entry.patternType ?? null, scoreBand: entry.scoreBand ?? null, hash: `h${k}`, recordedAt: new Date() },
    facts: text.facts!,
  }));

const book = new TradeBook({} as LedgerRepository, { pageSize: 2_000 });
book.opens({ seq: 1, hash: GENESIS_HASH });
const SLICE = 1_000;
let longestSlice = 0;
let foldMs = 0;
const foldCpu0 = process.threadCpuUsage();
for (let at = 0; at < told.length; at += SLICE) {
  const records = told.slice(at, at + SLICE);
  const t0 = performance.now();
  book.fold({ replayId: 'rpl_bench', from: { ...book.head }, to: { seq: records.at(-1)!.row.seq, hash: records.at(-1)!.row.hash }, records, opens: false });
  const ms = performance.now() - t0;
  foldMs += ms;
  longestSlice = Math.max(longestSlice, ms);
}

const foldCpu = process.threadCpuUsage(foldCpu0);

/** `f` `runs` times: the longest run's wall time and CPU, and the longest stretch of any (bench/lib `measuredStretch`). */
async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number; cpu: number; stretch: number; stretchCpu: number }> {
  let [worst, stretch, cpu, stretchCpu] = [0, 0, 0, 0];
  let value!: T;
  for (let r = 0; r < runs; r++) {
    const run = await measuredStretch(f);
    [value, worst, cpu] = [run.value, Math.max(worst, run.wallMs), Math.max(cpu, run.cpuMs)];
    [stretch, stretchCpu] = [Math.max(stretch, run.stretchMs), Math.max(stretchCpu, run.stretchCpuMs)];
  }
  return { value, ms: worst, cpu, stretch, stretchCpu };
}
const made = await timed(() => snapshotBytes(book.columns));
const read = await timed(async () => (await columnsOf(made.value))!);
// As a resume rebuilds it (ledger/book), in one stretch here: the book does it in slices.
const c0 = process.threadCpuUsage();
const bySignal = new Map<string, number>();
for (let i = 0; i < read.value.n; i++) bySignal.set(read.value.id[i]!, i);
const c1 = process.threadCpuUsage(c0);
const lookup = (c1.user + c1.system) / 1000;
if (read.value.n !== book.columns.n) throw new Error('snapshot read back a different book');

printTable(`trade book folded and kept (${told.length} signal and outcome records, ${book.columns.n} trades); CPU ms of this thread, and wall ms`, [
  { what: 'fold, per 1,000 records (slices of 1,000)', 'CPU ms': (((foldCpu.user + foldCpu.system) / 1000 / told.length) * 1000).toFixed(2), 'wall ms': ((foldMs / told.length) * 1000).toFixed(2), 'longest stretch (wall) ms': longestSlice.toFixed(1) },
  { what: `snapshot made (${(made.value.length / 2 ** 20).toFixed(1)} MB)`, 'CPU ms': made.cpu.toFixed(1), 'wall ms': made.ms.toFixed(1), 'longest stretch (wall) ms': `${made.stretch.toFixed(1)} (CPU ${made.stretchCpu.toFixed(1)})` },
  { what: 'snapshot read back', 'CPU ms': read.cpu.toFixed(1), 'wall ms': read.ms.toFixed(1), 'longest stretch (wall) ms': `${read.stretch.toFixed(1)} (CPU ${read.stretchCpu.toFixed(1)})` },
  { what: 'signal lookup (the book rebuilds it in slices of 20k)', 'CPU ms': lookup.toFixed(1), 'wall ms': '', 'longest stretch (wall) ms': '' },
]);
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
