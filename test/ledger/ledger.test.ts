/**
 * The ledger's promises: append-only in the database, tamper-evident through
 * the hash chain and checkpoints, idempotent per signal. On PostgreSQL (CI's
 * second pass) the tampering is done as a superuser (DATABASE_ADMIN_URL); on
 * PGlite the session is already superuser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/db/client';
import { LedgerRepository, REPLAY_CHAIN, type LedgerEntry } from '../../src/db/repositories/ledger';
import { canonicalJson } from '../../src/ledger/canonical';
import { chainHash, GENESIS_HASH } from '../../src/ledger/chain';
import { LedgerVerifier, verifyLedger, verifyLedgers } from '../../src/ledger/verify';
import { verification } from '../../src/modules/transparency/service';
import { asSuperuser, freshDatabaseUrl, usingPostgres } from '../helpers/db';

let database: Database;

/** Every change but an append, to a chain's records and checkpoints (its tables `${prefix}_records`, `${prefix}_checkpoints`). */
const CHANGES = [
  (prefix: string) => `update ${prefix}_records set body = '{}' where seq = 1`,
  (prefix: string) => `delete from ${prefix}_records where seq = 2`,
  (prefix: string) => `truncate ${prefix}_records`,
  (prefix: string) => `update ${prefix}_checkpoints set count = 0`,
  (prefix: string) => `truncate ${prefix}_checkpoints`,
];
/** What each change meets: the append-only trigger's refusal (drizzle/0003 and 0012, `*_append_only`). */
const APPEND_ONLY = CHANGES.map(() => expect.stringContaining('append-only'));

/** Each change tried by the application on a chain's tables: the error it met, or 'no error'. */
async function refusals(prefix: string): Promise<string[]> {
  const met: string[] = [];
  for (const change of CHANGES) {
    try {
      await database.db.execute(sql.raw(change(prefix)));
      met.push(`no error: ${change(prefix)}`);
    } catch (error) {
      met.push(String((error as { cause?: Error }).cause?.message ?? error));
    }
  }
  return met;
}
let ledger: LedgerRepository;
let url: string | undefined;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const fresh = await freshDatabaseUrl();
  url = fresh?.url;
  drop = fresh?.drop;
  database = await openDatabase({ url, dataDir: ':memory:' });
  ledger = new LedgerRepository(database.db);
});
afterAll(async () => {
  await database.close();
  await drop?.();
});

const signal = (id: string): LedgerEntry => ({ kind: 'signal', signalId: id, patternType: 'flat_base', scoreBand: 'strong', finalScore: 75, detectedAt: new Date('2026-11-20T00:00:00Z'), data: { id, triggerPrice: 101.25, reasons: ['base depth 9.1% over 6 weeks'] } });

describe('canonical JSON and the chain', () => {
  it('sorts keys at every level and rejects what JSON cannot say', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x'], c: null } })).toBe('{"a":{"c":null,"d":[1,"x"]},"b":1}');
    expect(canonicalJson({ x: undefined, y: 0.1 })).toBe('{"y":0.1}');
    expect(() => canonicalJson({ x: Number.NaN })).toThrow(TypeError);
  });
  it('hashes prev ‖ body with SHA-256 (checked with an independent implementation)', () => {
    const expected = new Bun.CryptoHasher('sha256').update(GENESIS_HASH + '{"a":1}').digest('hex');
    expect(chainHash(GENESIS_HASH, '{"a":1}')).toBe(expected);
    // sha256("0"*64 + '{"a":1}') computed with coreutils: printf '%s' "$(printf '0%.0s' {1..64})"'{"a":1}' | sha256sum
    expect(chainHash(GENESIS_HASH, '{"a":1}')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe(`ledger on ${usingPostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('chains records from the genesis hash and verifies', async () => {
    await ledger.append([signal('A-flat_base-2026-11-20T00:00:00.000Z'), signal('B-flat_base-2026-11-20T00:00:00.000Z')]);
    await ledger.append([{ kind: 'event', signalId: 'A-flat_base-2026-11-20T00:00:00.000Z', data: { from: 'forming', to: 'triggered', price: 102 } }]);
    const rows = await ledger.page(0, 10);
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(rows[0]!.prevHash).toBe(GENESIS_HASH);
    expect(rows[1]!.prevHash).toBe(rows[0]!.hash);
    expect(rows[2]!.hash).toBe(chainHash(rows[1]!.hash, rows[2]!.body));
    expect(JSON.parse(rows[0]!.body)).toMatchObject({ v: 1, seq: 1, kind: 'signal', data: { triggerPrice: 101.25 } });
    const report = await verifyLedger(ledger);
    expect(report).toMatchObject({ ok: true, count: 3, firstBadSeq: null });
  });

  it('writes a signal once under 50 concurrent duplicate writes', async () => {
    const id = 'C-vcp-2026-11-20T00:00:00.000Z';
    await Promise.all(Array.from({ length: 50 }, () => ledger.append([signal(id)])));
    const rows = (await ledger.page(0, 1000)).filter((r) => r.signalId === id);
    expect(rows).toHaveLength(1);
    expect((await verifyLedger(ledger)).ok).toBe(true);
  });

  it('refuses UPDATE, DELETE and TRUNCATE by the application, changing nothing', async () => {
    await ledger.checkpoint();
    const before = await ledger.page(0, 1000);
    const checkpointsBefore = await ledger.checkpoints();
    expect(await refusals('ledger')).toEqual(APPEND_ONLY);
    expect(await ledger.page(0, 1000)).toEqual(before);
    expect(await ledger.checkpoints()).toEqual(checkpointsBefore);
  });

  it('names the first altered record, and a checkpoint the chain no longer starts with', async () => {
    const [cp] = await ledger.checkpoints();
    expect(cp).toMatchObject({ seq: 4, count: 4 });
    await asSuperuser(database, url, `update ledger_records set body = replace(body, '101.25', '99.5') where seq = 2`);
    const report = await verifyLedger(ledger);
    expect(report.ok).toBe(false);
    expect(report.firstBadSeq).toBe(2);
    expect(report.reason).toContain('altered');
  });

  it('detects records removed from the end through the checkpoints', async () => {
    const fresh = await freshDatabaseUrl();
    const db2 = await openDatabase({ url: fresh?.url, dataDir: ':memory:' });
    const l2 = new LedgerRepository(db2.db);
    try {
      await l2.append([signal('X-1'), signal('X-2'), signal('X-3')]);
      await l2.checkpoint();
      await asSuperuser(db2, fresh?.url, 'delete from ledger_records where seq = 3');
      const report = await verifyLedger(l2);
      expect(report.ok).toBe(false);
      expect(report.reason).toContain('checkpoint at seq 3');
    } finally {
      await db2.close();
      await fresh?.drop();
    }
  });
});

describe('the replay chain', () => {
  it('is a chain of its own: appends never touch the live chain, and a signal is once per replay', async () => {
    const replay = new LedgerRepository(database.db, REPLAY_CHAIN);
    const liveBefore = await ledger.head();
    const a = replay.forReplay('rpl_aaaaaaaaaaaaaaaaaaaa');
    const b = replay.forReplay('rpl_bbbbbbbbbbbbbbbbbbbb');
    await a.append([signal('R-1'), signal('R-2')]);
    await a.append([signal('R-1')]); // the same replay: skipped
    await b.append([signal('R-1')]); // another replay surfaced it too
    expect(await ledger.head()).toEqual(liveBefore);
    const rows = await replay.page(0, 100);
    expect(rows.map((r) => [r.seq, r.signalId, r.replayId])).toEqual([
      [1, 'R-1', 'rpl_aaaaaaaaaaaaaaaaaaaa'],
      [2, 'R-2', 'rpl_aaaaaaaaaaaaaaaaaaaa'],
      [3, 'R-1', 'rpl_bbbbbbbbbbbbbbbbbbbb'],
    ]);
    expect((await a.signalRecords({}, 10, 0)).total).toBe(2);
    expect((await b.signalRecords({}, 10, 0)).total).toBe(1);
    await replay.checkpoint();
    const both = await verifyLedgers({ live: ledger, replay });
    expect(both.replay).toMatchObject({ ok: true, count: 3, checkpoints: { count: 1, verified: 1 } });
    expect(both.live).toEqual({ ...(await verifyLedger(ledger)), durationMs: both.live.durationMs, verifiedAt: both.live.verifiedAt });
  });

  it('refuses UPDATE, DELETE and TRUNCATE like the live chain', async () => {
    expect(await refusals('replay_ledger')).toEqual(APPEND_ONLY);
  });

  it('fails verification on its own when altered', async () => {
    const replay = new LedgerRepository(database.db, REPLAY_CHAIN);
    await asSuperuser(database, url, `update replay_ledger_records set body = replace(body, '101.25', '99.5') where seq = 2`);
    const both = await verifyLedgers({ live: ledger, replay });
    expect(both.ok).toBe(false);
    expect(both.replay).toMatchObject({ ok: false, firstBadSeq: 2 });
    expect(both.replay.reason).toContain('altered');
    // The server's answer goes on from the checkpoint the full pass above stored (seq 3, before the change):
    // a record changed before it is the full pass's to find, as it just did.
    const answer = await verification({ live: new LedgerVerifier(ledger), replay: new LedgerVerifier(replay) });
    expect(answer.ok).toBe(false);
    expect(answer.chains.replay).toMatchObject({ ok: true, scope: 'incremental', fromSeq: 3 });
    // The live chain of this file was altered earlier (seq 2): the top level reports it first.
    expect(answer.chains.live.ok).toBe(false);
    expect(answer.reason).toBe(answer.chains.live.reason);
  });
});
