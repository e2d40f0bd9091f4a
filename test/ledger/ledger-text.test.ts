/**
 * A record's text as the appender writes it (db/repositories/ledger-text):
 * the body put together from its data's canonical JSON is the canonical JSON
 * of the whole body (ledger/canonical, RFC 8785), and a body or facts passed to
 * the database as the JSON they are come back byte for byte — awkward
 * characters, escapes and an escaped NUL (which PostgreSQL keeps out of a json
 * value's text) included, on PGlite and on PostgreSQL (CI's second pass).
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { asc } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/db/client';
import { LedgerRepository, REPLAY_CHAIN, type LedgerEntry } from '../../src/db/repositories/ledger';
import { bodyText, factsText } from '../../src/db/repositories/ledger-text';
import { replayLedgerFacts } from '../../src/db/schema';
import { canonicalJson } from '../../src/ledger/canonical';
import { verifyLedger } from '../../src/ledger/verify';
import { freshDatabaseUrl } from '../helpers/db';

/** Data with what JSON escapes or spells in more than one way: quotes, backslashes, control characters, NUL, non-Latin text, astral characters, -0, exponents. */
const AWKWARD: Record<string, unknown>[] = [
  { id: 'plain', n: 1 },
  { reasons: ['say "hi"', 'back\\slash', 'tab\there', 'line\nbreak', 'bell\u0007'], z: -0, tiny: 2.5e-7, big: 1e21 },
  { symbol: 'BRK.B', note: 'café ünïcode – 株式 😀', nested: { b: [1, { d: null, c: true }], a: 'x' } },
  { nul: 'before\u0000after', alert: { verdict: 'blocked', codes: ['a\u0000b'] }, id: 'nul' },
  { literal: 'not a NUL: \\u0000' },
];

describe('a record body from its data’s canonical JSON', () => {
  it('is the canonical JSON of the whole body', () => {
    AWKWARD.forEach((data, i) => {
      for (const kind of ['signal', 'event', 'outcome', 'replay'] as const) {
        const seq = 1000 + i;
        const recordedAt = '2026-11-28T13:55:02.123Z';
        const signalId = `sig_"${i}"\u00e9`;
        expect(bodyText(seq, kind, signalId, recordedAt, canonicalJson(data))).toBe(canonicalJson({ v: 1, seq, kind, signalId, recordedAt, data }));
      }
    });
  });
});

describe('the appender on a database', () => {
  let database: Database;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const fresh = await freshDatabaseUrl();
    drop = fresh?.drop;
    database = await openDatabase({ url: fresh?.url, dataDir: ':memory:' });
  });
  afterAll(async () => {
    await database.close();
    await drop?.();
  });

  it('stores each body and facts byte for byte, escaped NUL included, and the chain verifies', async () => {
    const ledger = new LedgerRepository(database.db, REPLAY_CHAIN, 'rpl_text');
    const entries: LedgerEntry[] = AWKWARD.flatMap((data, i) => [
      { kind: 'signal', signalId: `sig_${i}`, patternType: 'flat_base', scoreBand: 'strong', finalScore: 71.5, detectedAt: new Date('2026-11-20T00:00:00Z'), data: { ...data, id: `sig_${i}` } },
      { kind: 'outcome', signalId: `sig_${i}`, data: { outcome: 'win', rMultiple: 1.25, ...data } },
    ]);
    const written = await ledger.append(entries);
    expect(written.map((r) => r.body)).toEqual(entries.map((e, k) => canonicalJson({ v: 1, seq: k + 1, kind: e.kind, signalId: e.signalId, recordedAt: written[0]!.recordedAt.toISOString(), data: e.data })));
    const stored = await ledger.page(0, 100);
    expect(stored.map((r) => r.body)).toEqual(written.map((r) => r.body));
    const facts = await database.db.select().from(replayLedgerFacts).orderBy(asc(replayLedgerFacts.seq));
    expect(facts.map((f) => f.facts)).toEqual(entries.map((e) => factsText(e.kind, e.data, 'replay')!));
    expect((await verifyLedger(ledger)).ok).toBe(true);
  });
});
