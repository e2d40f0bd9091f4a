/**
 * The server's ledger verifier (issue 12: verification must not stall the
 * server): a burst of requests costs one pass, a report is reused while the
 * head is unchanged, appended records are verified incrementally from the
 * verified head, and the whole chain is recomputed when the last full pass is
 * older than `fullEveryMs` — so tampering anywhere is still found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { openDatabase, type Database } from '../../src/db/client';
import { LedgerRepository, type LedgerEntry } from '../../src/db/repositories/ledger';
import { LedgerVerifier, verifyLedger } from '../../src/ledger/verify';
import { asSuperuser, freshDatabaseUrl } from '../helpers/db';

const signal = (id: string): LedgerEntry => ({
  kind: 'signal',
  signalId: id,
  patternType: 'flat_base',
  scoreBand: 'strong',
  finalScore: 75,
  detectedAt: new Date('2026-11-20T00:00:00Z'),
  data: { id, triggerPrice: 101.25 },
});
const signals = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => signal(`${prefix}-${i}`));

describe('LedgerVerifier', () => {
  let database: Database;
  let url: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  let ledger: LedgerRepository;
  let pages = 0;
  let now = Date.UTC(2026, 10, 20);
  let verifier: LedgerVerifier;

  beforeAll(async () => {
    const fresh = await freshDatabaseUrl();
    url = fresh?.url;
    drop = fresh?.drop;
    database = await openDatabase({ url, dataDir: ':memory:' });
    ledger = new LedgerRepository(database.db);
    await ledger.append(signals('A', 7500));
    await ledger.checkpoint();
    // Counts the pages the verifier reads (the repository itself underneath).
    const counting = Object.assign(Object.create(ledger) as LedgerRepository, {
      page: (after: number, limit: number) => {
        pages++;
        return ledger.page(after, limit);
      },
    });
    verifier = new LedgerVerifier(counting, { fullEveryMs: 600_000, pageSize: 5_000, now: () => now });
  });
  afterAll(async () => {
    await database.close();
    await drop?.();
  });

  it('answers 40 concurrent callers with one full pass', async () => {
    const reports = await Promise.all(Array.from({ length: 40 }, () => verifier.verify()));
    expect(reports[0]).toMatchObject({ ok: true, count: 7500, scope: 'full', fromSeq: 0, checkpoints: { count: 1, verified: 1 } });
    expect(new Set(reports).size).toBe(1);
    // 7,500 records in pages of 5,000, and the empty page that ends the walk.
    expect(pages).toBe(3);
  });

  it('reuses the report while the head is unchanged', async () => {
    const before = pages;
    const again = await verifier.verify();
    expect(pages).toBe(before);
    expect(again.head.seq).toBe(7500);
    expect(again.scope).toBe('full');
  });

  it('verifies appended records from the verified head only', async () => {
    await ledger.append(signals('B', 10));
    await ledger.checkpoint();
    const before = pages;
    const report = await verifier.verify();
    expect(report).toMatchObject({ ok: true, count: 7510, scope: 'incremental', fromSeq: 7500, checkpoints: { count: 2, verified: 2 } });
    // The verified head, the new page, the end.
    expect(pages - before).toBe(3);
    expect(report.head).toEqual({ seq: 7510, hash: (await ledger.head()).hash });
  });

  it('finds a change at the verified head in the next incremental pass', async () => {
    const head = await ledger.head();
    await asSuperuser(database, url, `update ledger_records set body = replace(body, '101.25', '99.5') where seq = ${head.seq}`);
    await asSuperuser(database, url, `update ledger_records set hash = '${'f'.repeat(64)}' where seq = ${head.seq}`);
    await ledger.append(signals('C', 1));
    const report = await verifier.verify();
    expect(report.ok).toBe(false);
    expect(report.scope).toBe('incremental');
    expect(report.firstBadSeq).toBe(head.seq);
  });

  it('recomputes everything once the last full pass is older than fullEveryMs, finding a change deep in the chain', async () => {
    const fresh = await freshDatabaseUrl();
    const db2 = await openDatabase({ url: fresh?.url, dataDir: ':memory:' });
    const l2 = new LedgerRepository(db2.db);
    let clock = 0;
    const v2 = new LedgerVerifier(l2, { fullEveryMs: 600_000, now: () => clock });
    try {
      await l2.append(signals('D', 50));
      expect((await v2.verify()).ok).toBe(true);
      await asSuperuser(db2, fresh?.url, `update ledger_records set body = replace(body, '101.25', '99.5') where seq = 7`);
      await l2.append(signals('E', 5));
      // Within the window only the new records are recomputed…
      expect(await v2.verify()).toMatchObject({ ok: true, scope: 'incremental', fromSeq: 50 });
      // …and the next full pass names the altered record.
      clock += 600_000;
      expect(await v2.verify()).toMatchObject({ ok: false, scope: 'full', firstBadSeq: 7 });
      expect((await verifyLedger(l2)).firstBadSeq).toBe(7);
    } finally {
      await db2.close();
      await fresh?.drop();
    }
  });

  it('starts over with a full pass after a failed report', async () => {
    now += 1;
    const report = await verifier.verify();
    expect(report.scope).toBe('full');
    expect(report.ok).toBe(false);
  });
});
