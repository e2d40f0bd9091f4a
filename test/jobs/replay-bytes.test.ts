/**
 * The replay chain's bytes do not depend on where a record's JSON is made
 * (issue 27: the workers make each record's canonical JSON and facts now, and
 * the appender puts a body together from it): a small universe replayed in
 * chunks, several slices a chunk, writes exactly the records, bodies, hashes
 * and facts the appender wrote when the server's thread built every record
 * as an object and serialised it. `RECORDED` was printed by this test on
 * main at cb809ed (before the change); the run's id and the time of writing,
 * which differ from run to run, are named `RUN` and `AT` in what is hashed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { asc } from 'drizzle-orm';
import { replayLedgerFacts } from '../../src/db/schema';
import type { ReplayParams } from '../../src/domain/replay';
import { runReplay } from '../../src/jobs/replay/run';
import { verifyLedger } from '../../src/ledger/verify';
import { createSyntheticProvider } from '../../src/providers/synthetic';
import { createTestContext, type TestContext } from '../helpers/app';

const SYMBOLS = ['AAPL', 'MSFT', 'NVDA', 'AMZN', 'JPM', 'XOM', 'KO', 'AMD'];
const PARAMS: ReplayParams = { timeframe: 'daily', from: '2025-09-01', to: '2025-12-31', universe: { kind: 'symbols', symbols: SYMBOLS }, benchmark: 'SPY' };
/** What this test printed on main at cb809ed: records, and the sha256 of what it hashes (791 facts, 74 slices). */
const RECORDED = { records: 1421, digest: 'e3049e78eaa025bdb12717b342ee033623bc80ba2a38c6ca6b5bb8c1b7805a88' };

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ provider: createSyntheticProvider({ seed: 42, now: () => Date.UTC(2026, 0, 30, 22) }) });
});
afterAll(() => ctx.close());

describe('the replay chain written from the workers’ JSON', () => {
  it('holds the bytes, hashes and facts main wrote for the same replay', async () => {
    const run = await runReplay({ ...ctx.services }, PARAMS, { origin: 'test', chunkSessions: 15, sliceRecords: 40 });
    expect(run.status).toBe('done');
    expect((await verifyLedger(ctx.services.replayLedger)).ok).toBe(true);
    const name = (text: string) => text.replaceAll(run.id, 'RUN');
    const hasher = new Bun.CryptoHasher('sha256');
    const ats = new Set<string>();
    let records = 0;
    for (let after = 0; ; ) {
      const rows = await ctx.services.replayLedger.page(after, 5000);
      if (rows.length === 0) break;
      for (const row of rows) {
        const at = (JSON.parse(row.body) as { recordedAt: string }).recordedAt;
        ats.add(at);
        hasher.update(`${row.seq} ${row.kind} ${name(row.signalId)} ${name(row.replayId ?? '')} ${name(row.body.replace(`"recordedAt":"${at}"`, '"recordedAt":"AT"'))}\n`);
        records++;
      }
      after = rows.at(-1)!.seq;
    }
    const facts = await ctx.services.database.db.select().from(replayLedgerFacts).orderBy(asc(replayLedgerFacts.seq));
    for (const f of facts) {
      hasher.update(`${f.seq} ${f.kind} ${name(f.signalId)} ${f.detectedAt?.toISOString()} ${f.patternType} ${f.scoreBand} ${name(f.facts)}\n`);
    }
    const digest = hasher.digest('hex');
    console.log(`replay-bytes: ${records} records, ${facts.length} facts, ${ats.size} slices, digest ${digest}`);
    expect(ats.size).toBeGreaterThan(10); // many slices, each its own transaction and time
    expect({ records, digest }).toEqual(RECORDED);
  });
});
