/**
 * Ledger write and verify throughput (issue 4): batch appends through
 * LedgerRepository.append (canonical JSON, SHA-256 chaining, one transaction
 * per 1,000-record batch under the ledger's advisory lock), on PGlite and, with
 * DATABASE_URL, on PostgreSQL; then `verifyLedger` over the whole chain
 * (1,000,000 records on PostgreSQL; fewer with --smoke or on PGlite).
 *
 * Goals: ≥ 20k records/s appended on PostgreSQL; verify 1M in ≤ 5 s.
 * Run: `bun run bench/ledger.ts [--smoke]`.
 */
import { openDatabase, type Database } from '../src/db/client';
import { LedgerRepository, type LedgerEntry } from '../src/db/repositories/ledger';
import { verifyLedger } from '../src/ledger/verify';
import { freshDatabaseUrl } from '../test/helpers/db';
import { printTable, smoke } from './lib';

const BATCH = 1000;

function entries(from: number, n: number): LedgerEntry[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const id = `BENCH${i % 500}-flat_base-${new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString()}`;
    return {
      kind: 'signal' as const,
      signalId: id,
      patternType: 'flat_base',
      scoreBand: 'strong',
      finalScore: 70 + (i % 30),
      detectedAt: new Date(Date.UTC(2020, 0, 1) + i * 60_000),
      data: {
        id,
        symbol: `BENCH${i % 500}`,
        timeframe: 'daily',
        patternType: 'flat_base',
        direction: 'long',
        triggerPrice: 100 + (i % 97),
        target1: 112 + (i % 97),
        stopLoss: 94 + (i % 97),
        finalScore: 70 + (i % 30),
        scoreBand: 'strong',
        confidence: 0.8,
        reasons: ['base depth 12.4% over 7 weeks', 'volume 2.1× 50-day average'],
        regime: 'neutral',
        priceAtDetection: 101 + (i % 97),
      },
    };
  });
}

async function measure(label: string, database: Database, appendCount: number, verifyCount: number) {
  const ledger = new LedgerRepository(database.db);
  const started = performance.now();
  for (let i = 0; i < appendCount; i += BATCH) await ledger.append(entries(i, Math.min(BATCH, appendCount - i)));
  const appendSeconds = (performance.now() - started) / 1000;
  for (let i = appendCount; i < verifyCount; i += BATCH) await ledger.append(entries(i, Math.min(BATCH, verifyCount - i)));
  const report = await verifyLedger(ledger);
  if (!report.ok) throw new Error(`${label}: the chain does not verify at seq ${report.firstBadSeq}`);
  return {
    database: label,
    'records appended': appendCount,
    'append records/s': Math.round(appendCount / appendSeconds),
    'chain verified': report.count,
    'verify s': (report.durationMs / 1000).toFixed(2),
    'verify records/s': Math.round(report.count / (report.durationMs / 1000)),
  };
}

export async function benchLedger(): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  const pglite = await openDatabase({ dataDir: ':memory:' });
  try {
    rows.push(await measure('PGlite (in memory)', pglite, smoke ? 5_000 : 50_000, smoke ? 5_000 : 200_000));
  } finally {
    await pglite.close();
  }
  const scratch = await freshDatabaseUrl();
  if (scratch) {
    const pg = await openDatabase({ url: scratch.url, dataDir: ':memory:' });
    try {
      rows.push(await measure('PostgreSQL 15', pg, smoke ? 5_000 : 100_000, smoke ? 20_000 : 1_000_000));
    } finally {
      await pg.close();
      await scratch.drop();
    }
  }
  printTable(`bench/ledger — append in ${BATCH}-record transactions, then verify the whole chain${scratch ? '' : ' (PostgreSQL skipped: no DATABASE_URL)'}`, rows);
}

if (import.meta.main) await benchLedger();
