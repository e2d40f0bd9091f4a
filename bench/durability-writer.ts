/**
 * The writer half of bench/durability.ts: appends signal records to the ledger
 * through the server's own code path (LedgerRepository.append: one transaction
 * under the ledger's advisory lock), 1–20 at a time, forever, and prints
 * `ACK <id> …` only after each transaction has committed. It is killed with
 * SIGKILL at random moments; an id it printed must survive.
 *
 * Run by bench/durability.ts: `bun bench/durability-writer.ts <DATABASE_URL> <tag>`.
 */
import { openDatabase } from '../src/db/client';
import { LedgerRepository } from '../src/db/repositories/ledger';

const [url, tag] = process.argv.slice(2);
if (!url || !tag) throw new Error('usage: durability-writer.ts <DATABASE_URL> <tag>');
const database = await openDatabase({ url, dataDir: ':memory:' }); // dataDir is unused with a url
const ledger = new LedgerRepository(database.db);
let n = 0;
for (;;) {
  const batch = 1 + Math.floor(Math.random() * 20);
  const ids = Array.from({ length: batch }, () => `DUR-${tag}-${n++}`);
  await ledger.append(
    ids.map((id) => ({
      kind: 'signal' as const,
      signalId: id,
      patternType: 'flat_base',
      scoreBand: 'strong',
      finalScore: 75,
      detectedAt: new Date(),
      data: { id, symbol: 'DUR', patternType: 'flat_base', direction: 'long', triggerPrice: 100, target1: 110, stopLoss: 95 },
    })),
  );
  process.stdout.write(`ACK ${ids.join(' ')}\n`);
}
