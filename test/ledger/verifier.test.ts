/**
 * The server's ledger verifier (issues 12, 26, 27: verification must not stall
 * the server): a burst of requests costs one pass, a report is reused while the
 * head is unchanged, and appended records are verified on from the
 * verification checkpoint stored with the chain — by this verifier, another
 * instance's, after a restart, or by `breakline verify-ledger` — so a head
 * that moved by a few records costs a few records. A change before the
 * checkpoint is what only a full pass finds, and the full pass finds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { openDatabase, type Database } from '../../src/db/client';
import { LedgerRepository, type LedgerEntry } from '../../src/db/repositories/ledger';
import { LedgerVerifier, verifyLedgers } from '../../src/ledger/verify';
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
  /** The same ledger with its pages counted (the repository itself underneath). */
  const counting = (of: LedgerRepository) =>
    Object.assign(Object.create(of) as LedgerRepository, {
      page: (after: number, limit: number) => {
        pages++;
        return of.page(after, limit);
      },
    });
  let verifier: LedgerVerifier;

  beforeAll(async () => {
    const fresh = await freshDatabaseUrl();
    url = fresh?.url;
    drop = fresh?.drop;
    database = await openDatabase({ url, dataDir: ':memory:' });
    ledger = new LedgerRepository(database.db);
    await ledger.append(signals('A', 7500));
    await ledger.checkpoint();
    verifier = new LedgerVerifier(counting(ledger), { pageSize: 5_000 });
  });
  afterAll(async () => {
    await database.close();
    await drop?.();
  });

  it('answers 40 concurrent callers with one full pass of a chain never verified, and stores its head', async () => {
    const reports = await Promise.all(Array.from({ length: 40 }, () => verifier.verify()));
    expect(reports[0]).toMatchObject({ ok: true, count: 7500, scope: 'full', fromSeq: 0, checkpoints: { count: 1, verified: 1 } });
    expect(new Set(reports).size).toBe(1);
    // 7,500 records in pages of 5,000, and the empty page that ends the walk.
    expect(pages).toBe(3);
    expect(await ledger.facts.state()).toMatchObject({ verifiedSeq: 7500, verifiedHash: (await ledger.head()).hash });
  });

  it('reuses the report while the head is unchanged', async () => {
    const before = pages;
    const again = await verifier.verify();
    expect(pages).toBe(before);
    expect(again.head.seq).toBe(7500);
  });

  it('verifies appended records from the stored checkpoint only', async () => {
    await ledger.append(signals('B', 10));
    await ledger.checkpoint();
    const before = pages;
    const report = await verifier.verify();
    expect(report).toMatchObject({ ok: true, count: 7510, scope: 'incremental', fromSeq: 7500, checkpoints: { count: 2, verified: 2 } });
    // The checkpoint's record, the new page, the end.
    expect(pages - before).toBe(3);
    expect(report.head).toEqual({ seq: 7510, hash: (await ledger.head()).hash });
  });

  it('goes on from the stored checkpoint after a restart (a verifier of its own, as another instance)', async () => {
    await ledger.append(signals('C', 3));
    const restarted = new LedgerVerifier(counting(ledger), { pageSize: 5_000 });
    const before = pages;
    expect(await restarted.verify()).toMatchObject({ ok: true, count: 7513, scope: 'incremental', fromSeq: 7510 });
    expect(pages - before).toBe(3);
  });

  it('finds a change at the stored checkpoint in the next pass, and stores nothing while it fails', async () => {
    const head = await ledger.head();
    await asSuperuser(database, url, `update ledger_records set body = replace(body, '101.25', '99.5') where seq = ${head.seq}`);
    await asSuperuser(database, url, `update ledger_records set hash = '${'f'.repeat(64)}' where seq = ${head.seq}`);
    await ledger.append(signals('D', 1));
    const report = await verifier.verify();
    expect(report).toMatchObject({ ok: false, scope: 'incremental', firstBadSeq: head.seq });
    expect((await ledger.facts.state()).verifiedSeq).toBe(head.seq);
  });

  it('does not see a change before the stored checkpoint; the full pass of verify-ledger names it and stores nothing', async () => {
    const fresh = await freshDatabaseUrl();
    const db2 = await openDatabase({ url: fresh?.url, dataDir: ':memory:' });
    const l2 = new LedgerRepository(db2.db);
    try {
      await l2.append(signals('E', 50));
      expect((await new LedgerVerifier(l2).verify()).ok).toBe(true);
      await asSuperuser(db2, fresh?.url, `update ledger_records set body = replace(body, '101.25', '99.5') where seq = 7`);
      await l2.append(signals('F', 5));
      // The incremental answer recomputes only what came after its checkpoint…
      expect(await new LedgerVerifier(l2).verify()).toMatchObject({ ok: true, scope: 'incremental', fromSeq: 50 });
      // …the full pass names the altered record, and leaves the stored checkpoint where it was.
      const full = await verifyLedgers({ live: l2, replay: l2 });
      expect(full.live).toMatchObject({ ok: false, scope: 'full', firstBadSeq: 7 });
      expect((await l2.facts.state()).verifiedSeq).toBe(55);
    } finally {
      await db2.close();
      await fresh?.drop();
    }
  });
});
