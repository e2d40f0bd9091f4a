/**
 * What keeping the signal index costs the replay's appends (issue 27,
 * db/repositories/ledger-signals): the stall guard's seeded replay
 * (test/helpers/ledger-seed, `--signals N`, default 5,000: a signal, a state
 * change and most an outcome each) written into a fresh embedded database
 * twice — once as the appender does, once with the index's insert skipped —
 * alternating `--runs` times; prints the main thread's CPU ms per 1,000
 * records for each and the load average.
 *
 * bun run bench/ledger-signals.ts [--signals 5000] [--runs 2]
 */
import { loadavg } from 'node:os';
import { openDatabase } from '../src/db/client';
import { LedgerSignalsRepository } from '../src/db/repositories/ledger-signals';
import { writeLedgers } from '../test/helpers/ledger-seed';

const arg = (name: string, fallback: number) => Number(process.argv[process.argv.indexOf(name) + 1] ?? fallback) || fallback;
const signals = arg('--signals', 5_000);
const runs = arg('--runs', 2);
const extendIn = LedgerSignalsRepository.prototype.extendIn;
const cpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

const rows: string[] = [];
for (let run = 0; run < runs; run++) {
  for (const kept of [true, false]) {
    LedgerSignalsRepository.prototype.extendIn = kept ? extendIn : async () => {};
    const database = await openDatabase({ dataDir: ':memory:' });
    const began = cpuMs();
    const { replayRecords } = await writeLedgers(database.db, { signals, liveSignals: 0 });
    const spent = cpuMs() - began;
    await database.close();
    rows.push(`| ${run + 1} | ${kept ? 'index kept' : 'index skipped'} | ${replayRecords} | ${((spent / replayRecords) * 1000).toFixed(0)} |`);
  }
}
console.log(`load ${loadavg().map((l) => l.toFixed(1)).join(' / ')}\n\n| run | appends | records | main thread CPU ms / 1k records |\n|---|---|---|---|\n${rows.join('\n')}`);
