/**
 * Ledger durability under kill -9 (issue 4). Two writer processes
 * (bench/durability-writer.ts, the server's own ledger code) append signal
 * records continuously to a fresh PostgreSQL database; at a random moment in
 * each round both are killed with SIGKILL, then restarted. At the end every
 * acknowledged id (printed only after its transaction committed) must be in the
 * ledger, and the whole chain must verify.
 *
 * Needs DATABASE_URL (a role that may CREATE DATABASE); without it, says so
 * and exits 0. Run: `bun run bench/durability.ts [--smoke]`. Exits 1 on a loss
 * or a broken chain (CI runs the smoke on PostgreSQL).
 */
import { and, eq, inArray } from 'drizzle-orm';
import { openDatabase } from '../src/db/client';
import { LedgerRepository } from '../src/db/repositories/ledger';
import { ledgerRecords } from '../src/db/schema';
import { verifyLedger } from '../src/ledger/verify';
import { freshDatabaseUrl } from '../test/helpers/db';
import { printTable, smoke } from './lib';

const WRITERS = 2;

export async function benchDurability(): Promise<boolean> {
  const scratch = await freshDatabaseUrl();
  if (!scratch) {
    console.log('\nbench/durability — skipped: needs DATABASE_URL (PostgreSQL)');
    return true;
  }
  const rounds = smoke ? 4 : 20;
  const url = scratch.url;
  const database = await openDatabase({ url, dataDir: ':memory:' }); // migrated once, before any writer
  const acked = new Set<string>();
  const killedAfterMs: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const writers = Array.from({ length: WRITERS }, (_, w) => {
        const proc = Bun.spawn([process.execPath, new URL('./durability-writer.ts', import.meta.url).pathname, url, `${round}w${w}`], { stdout: 'pipe', stderr: 'inherit' });
        const read = (async () => {
          const decoder = new TextDecoder();
          let pending = '';
          for await (const chunk of proc.stdout) {
            pending += decoder.decode(chunk, { stream: true });
            const lines = pending.split('\n');
            pending = lines.pop()!; // a line cut by the kill was never acknowledged
            for (const line of lines) if (line.startsWith('ACK ')) for (const id of line.slice(4).split(' ')) acked.add(id);
          }
        })();
        return { proc, read };
      });
      const wait = 300 + Math.floor(Math.random() * 1200);
      killedAfterMs.push(wait);
      await Bun.sleep(wait);
      for (const { proc } of writers) proc.kill('SIGKILL');
      for (const { proc, read } of writers) {
        await proc.exited;
        await read;
      }
    }
    const ledger = new LedgerRepository(database.db);
    const present = new Set<string>();
    const ids = [...acked];
    for (let i = 0; i < ids.length; i += 5000) {
      const rows = await database.db.select({ id: ledgerRecords.signalId }).from(ledgerRecords).where(and(eq(ledgerRecords.kind, 'signal'), inArray(ledgerRecords.signalId, ids.slice(i, i + 5000))));
      for (const row of rows) present.add(row.id);
    }
    const report = await verifyLedger(ledger);
    const lost = ids.filter((id) => !present.has(id));
    const ok = lost.length === 0 && report.ok;
    printTable(`bench/durability — ${WRITERS} writers, SIGKILL at a random moment in each of ${rounds} rounds, PostgreSQL`, [
      {
        rounds,
        'kill after ms (min–max)': `${Math.min(...killedAfterMs)}–${Math.max(...killedAfterMs)}`,
        'acknowledged records': acked.size,
        'records in ledger': report.count,
        'acknowledged lost': lost.length,
        'chain verifies': report.ok ? 'yes' : `no (seq ${report.firstBadSeq}: ${report.reason})`,
        'verify ms': Math.round(report.durationMs),
      },
    ]);
    if (lost.length) console.log(`lost: ${lost.slice(0, 10).join(', ')}${lost.length > 10 ? ' …' : ''}`);
    return ok;
  } finally {
    await database.close();
    await scratch.drop();
  }
}

if (import.meta.main) process.exit((await benchDurability()) ? 0 : 1);
