/**
 * bench/book-resume: what a cold trade book costs the server's thread
 * (issue 27, ledger/book) on the embedded database, over test/helpers/ledger-seed's
 * replay of `--signals` signals (20,000 by default; each with its state
 * change and most with an outcome): the book loaded from the chain's facts
 * (what main does for every cold book: after a restart, a new day's
 * scorecard, an upgrade), the book kept (its snapshot written), and the book
 * resumed from that snapshot in a fresh set of books (what a restart does
 * now). For each: wall time, this thread's CPU, and the longest stretch
 * without a turn of the event loop (a 1 ms timer's lateness), with the load
 * average. Prints; asserts nothing.
 *
 *   bun run bench/book-resume.ts [--signals 20000]
 */
import { loadavg } from 'node:os';
import { openDatabase } from '../src/db/client';
import { LedgerRepository, REPLAY_CHAIN } from '../src/db/repositories/ledger';
import { LedgerBooks } from '../src/ledger/book';
import { writeLedgers } from '../test/helpers/ledger-seed';
import { measuredStretch, printTable } from './lib';

const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) || fallback : fallback);
const signals = arg('--signals', 20_000);

const database = await openDatabase({ dataDir: ':memory:' });
const seeding = performance.now();
const { replayId, replayRecords } = await writeLedgers(database.db, { signals, liveSignals: 0 });
console.error(`seeded ${replayRecords} replay records in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

/** A row of the table: `f` measured (bench/lib `measuredStretch`). */
async function measured(what: string, f: () => Promise<unknown>): Promise<Record<string, string>> {
  const { wallMs, cpuMs, stretchMs, stretchCpuMs } = await measuredStretch(f);
  return { what, 'wall ms': wallMs.toFixed(0), 'CPU ms': cpuMs.toFixed(0), 'longest stretch wall ms': stretchMs.toFixed(1), 'longest stretch CPU ms': stretchCpuMs.toFixed(1) };
}

// The server's pages on the embedded database (services.ts).
const options = { pageSize: 250, maxBooks: 3 };
const rows: Record<string, string>[] = [];
let trades = 0;
const loading = new LedgerBooks(new LedgerRepository(database.db, REPLAY_CHAIN), options);
rows.push(await measured('book loaded from the facts (main, every cold book)', async () => (trades = (await loading.book(replayId)).columns.n)));
rows.push(await measured('book kept (snapshot written)', () => loading.keep(replayId)));
const resuming = new LedgerBooks(new LedgerRepository(database.db, REPLAY_CHAIN), options);
rows.push(await measured('book resumed from the snapshot (a restart now)', async () => {
  const book = await resuming.book(replayId);
  if (book.columns.n !== trades || book.pagesRead !== 0) throw new Error('the resumed book is not the kept one');
}));
printTable(`a cold trade book on the embedded database: ${replayRecords} replay records, ${trades} trades`, rows);
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
await database.close();
