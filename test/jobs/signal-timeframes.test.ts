/**
 * Signal ids per timeframe (issue 26 item 9): the 4h and the 1h bars that open
 * a session start at the same instant, so a 4h and a 1h signal of one symbol,
 * pattern and bar shared DESIGN §4's `SYMBOL-pattern-detectedAt` and their two
 * scans moved one stored state back and forth every cycle, writing spurious
 * ledger events. On the synthetic market (its fixed clock: 2026-11-20) four
 * symbols have such a pair at the 14:30Z open, in different states (the 4h
 * scan sees them `forming`, the 1h one past the trigger): the fixture below
 * keeps those four.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import { and, eq, inArray } from 'drizzle-orm';
import { ledgerRecords, signalEvents } from '../../src/db/schema';
import { bareSignalId, SIGNAL_ID_PATTERN, signalIdForms } from '../../src/domain/signal-id';
import type { ScanResult, Signal, Timeframe } from '../../src/domain/signal';
import { newId } from '../../src/ids';
import { runScan } from '../../src/jobs/scan';
import { verifyLedger } from '../../src/ledger/verify';
import type { ExplainResponse } from '../../src/modules/ai/model';
import type { Instrument, MarketDataProvider } from '../../src/providers/types';
import { createTestContext, syntheticMarket, type TestContext } from '../helpers/app';
import { fakeAnthropic, type FakeModelServer } from '../helpers/fake-models';
import { guardLoopback } from '../helpers/loopback';

/** The symbols whose 4h and 1h scans on the fixed clock surface a range_breakout on the same 14:30Z bar. */
const COLLIDING = ['CEG', 'CPAY', 'DE', 'MRSH'];

/** The synthetic market with only the colliding symbols in the indices (benchmarks and sector funds stay). */
function collidingMarket(): MarketDataProvider {
  const real = syntheticMarket();
  const inIndex = (i: Instrument) => i.indices.includes('sp500') || i.indices.includes('nasdaq100');
  const universe = async () => (await real.universe()).filter((i) => COLLIDING.includes(i.symbol) || !inIndex(i));
  return Object.assign(Object.create(Object.getPrototypeOf(real)), real, { universe });
}

const keyOf = (s: Pick<Signal, 'symbol' | 'patternType' | 'detectedAt'>) => `${s.symbol}-${s.patternType}-${s.detectedAt}`;

/** The signals of the latest run of each intraday timeframe whose symbol, pattern and bar time the other also lists. */
async function pairs(ctx: TestContext): Promise<{ h4: Signal; h1: Signal }[]> {
  const h4 = (await ctx.services.scans.latestRun('4h'))!.signals;
  const h1 = new Map((await ctx.services.scans.latestRun('1h'))!.signals.map((s) => [keyOf(s), s]));
  return h4.filter((s) => h1.has(keyOf(s))).map((s) => ({ h4: s, h1: h1.get(keyOf(s))! }));
}

/** Every recorded state change (signal_events rows after a signal's first) and ledger event record of `ids`. */
async function changesOf(ctx: TestContext, ids: string[]) {
  const { db } = ctx.services.database;
  const events = await db.select().from(signalEvents).where(inArray(signalEvents.signalId, ids));
  const ledger = await db.select().from(ledgerRecords).where(and(inArray(ledgerRecords.signalId, ids), eq(ledgerRecords.kind, 'event')));
  return { stateChanges: events.filter((e) => e.fromState !== null), ledgerEvents: ledger };
}

describe('signal ids per timeframe', () => {
  let ctx: TestContext;
  let fake: FakeModelServer;
  let guard: ReturnType<typeof guardLoopback>;
  const published: { signalId: string; from: string | null; to: string }[] = [];
  beforeAll(async () => {
    guard = guardLoopback();
    fake = fakeAnthropic();
    ctx = await createTestContext({ provider: collidingMarket(), env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.url, EXPLAIN_RATE_LIMIT_QUOTA: '100000' } });
    ctx.services.bus.subscribe('breakouts.state_change', (e) => published.push(e));
    await ctx.services.runs.persist('4h');
    await ctx.services.runs.persist('1h');
  }, 120_000);
  afterAll(async () => {
    await ctx.close();
    fake.stop();
    guard.restore();
  });

  it("keeps DESIGN's form for daily ids and ends intraday ones with the bar's ISO 8601 duration, parsing with DESIGN's pattern", async () => {
    const pattern = new RegExp(SIGNAL_ID_PATTERN);
    for (const timeframe of ['4h', '1h'] as const) {
      const { signals } = (await ctx.services.scans.latestRun(timeframe))!;
      expect(signals.length).toBeGreaterThan(0);
      for (const s of signals) {
        expect(s.id).toBe(`${keyOf(s)}/${timeframe === '4h' ? 'PT4H' : 'PT1H'}`);
        const [, symbol, patternType, when] = pattern.exec(s.id)!;
        expect({ symbol, patternType, when: when!.split('/')[0] }).toEqual({ symbol: s.symbol, patternType: s.patternType, when: s.detectedAt });
        expect(bareSignalId(s.id)).toEqual({ bare: keyOf(s), timeframe });
      }
    }
    expect(bareSignalId('NVDA-flat_base-2026-11-18T00:00:00.000Z')).toEqual({ bare: 'NVDA-flat_base-2026-11-18T00:00:00.000Z', timeframe: null });
  });

  it('tracks a 4h and a 1h signal of the same symbol, pattern and bar apart, with no flip-flop events over two more cycles', async () => {
    const found = await pairs(ctx);
    expect(found.map((p) => p.h4.symbol).sort()).toEqual(COLLIDING);
    // The fixture's point: the two timeframes see these setups in different states.
    for (const { h4, h1 } of found) expect(h4.breakoutState).not.toBe(h1.breakoutState);
    const ids = found.flatMap((p) => [p.h4.id, p.h1.id]);
    for (let cycle = 0; cycle < 2; cycle++) {
      await ctx.services.runs.persist('4h');
      await ctx.services.runs.persist('1h');
    }
    for (const { h4, h1 } of found) {
      expect(await ctx.services.scans.signalById(h4.id)).toMatchObject({ timeframe: '4h', state: h4.breakoutState });
      expect(await ctx.services.scans.signalById(h1.id)).toMatchObject({ timeframe: '1h', state: h1.breakoutState });
    }
    const { stateChanges, ledgerEvents } = await changesOf(ctx, ids);
    expect(stateChanges).toEqual([]);
    expect(ledgerEvents).toEqual([]);
    expect(published.filter((e) => ids.includes(e.signalId))).toEqual([]);
  }, 120_000);

  it('finds a signal by either form of its id: the bare form names the 4h signal before the 1h one', async () => {
    const { h4, h1 } = (await pairs(ctx))[0]!;
    expect((await ctx.services.scans.signalById(keyOf(h4)))?.id).toBe(h4.id);
    expect((await ctx.services.scans.signalById(h1.id))?.id).toBe(h1.id);
    expect(signalIdForms(keyOf(h4)).map((f) => f.id)).toEqual([keyOf(h4), h4.id, h1.id]);
    expect(await ctx.services.scans.signalById(`${keyOf(h4)}/PT2H`)).toBeUndefined();
    // GET /api/explain takes both forms and explains the stored signal.
    const asked: [string, string][] = [
      [h1.id, h1.id],
      [h4.id, h4.id],
      [keyOf(h4), h4.id],
    ];
    for (const [given, explained] of asked) {
      const { status, body } = await ctx.json<ExplainResponse>(`/api/explain?symbol=${h4.symbol}&signalId=${encodeURIComponent(given)}`);
      expect({ given, status, signalId: body.signalId }).toEqual({ given, status: 200, signalId: explained });
    }
    // A journal entry linked by the bare form is linked to the stored signal (its stop gives the R-multiple).
    const cookie = await ctx.sessionCookie('trader');
    const entry = await ctx.json<{ signalId: string }>('/api/journal/entries', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ symbol: h4.symbol, side: 'long', entryPrice: h4.triggerPrice, entryAt: '2026-11-20T15:00:00Z', size: 10, signalId: keyOf(h4) }),
    });
    expect({ status: entry.status, signalId: entry.body.signalId }).toEqual({ status: 201, signalId: h4.id });
  }, 60_000);
});

describe('intraday signals stored before ids carried the timeframe', () => {
  let ctx: TestContext;
  /** The colliding setups' bare ids as the old code stored them: the 4h scan's row, its state last written by the 1h scan. */
  let legacy: { bare: string; h4State: string; h1State: string }[];
  let ledgerBefore: unknown[];
  beforeAll(async () => {
    ctx = await createTestContext({ provider: collidingMarket() });
    // The old code: ids without the timeframe, so the 1h scan's collisions land on the 4h scan's rows.
    const bare = (result: ScanResult): ScanResult => ({ ...result, signals: result.signals.map((s) => ({ ...s, id: keyOf(s) })) });
    const scanned: Partial<Record<Timeframe, ScanResult>> = {};
    for (const timeframe of ['4h', '1h'] as const) {
      scanned[timeframe] = bare(await runScan(ctx.services, { timeframe }));
      await ctx.services.scans.saveRun(newId('run'), scanned[timeframe]!, 'synthetic', { candidates: [], blocked: [] }, () => []); // no stream events: only the stored rows matter here
    }
    const h1 = new Map(scanned['1h']!.signals.map((s) => [s.id, s.breakoutState]));
    legacy = scanned['4h']!.signals.filter((s) => h1.has(s.id)).map((s) => ({ bare: s.id, h4State: s.breakoutState, h1State: h1.get(s.id)! }));
    ledgerBefore = await ctx.services.database.db.select().from(ledgerRecords).orderBy(ledgerRecords.seq);
  }, 120_000);
  afterAll(() => ctx.close());

  it('goes on under its stored id in its own timeframe, corrected once; the other timeframe gets its own signal; nothing stored is rewritten', async () => {
    expect(legacy.map((l) => l.bare.split('-')[0]).sort()).toEqual(COLLIDING);
    for (const l of legacy) expect(await ctx.services.scans.signalById(l.bare)).toMatchObject({ timeframe: '4h', state: l.h1State });
    const ids = legacy.map((l) => l.bare);
    const before = await changesOf(ctx, ids);

    await ctx.services.runs.persist('4h');
    await ctx.services.runs.persist('1h');
    const latest4h = (await ctx.services.scans.latestRun('4h'))!;
    for (const l of legacy) {
      // The 4h scan lists it under its stored bare id (no second 4h signal of the setup); the 1h scan's is its own.
      expect(latest4h.signals.some((s) => s.id === l.bare)).toBe(true);
      expect(await ctx.services.scans.signalById(`${l.bare}/PT4H`)).toMatchObject({ id: l.bare });
      expect(await ctx.services.scans.signalById(`${l.bare}/PT1H`)).toMatchObject({ id: `${l.bare}/PT1H`, timeframe: '1h', state: l.h1State });
      expect(await ctx.services.scans.signalById(l.bare)).toMatchObject({ timeframe: '4h', state: l.h4State, lastSeenRunId: latest4h.id });
    }
    // One correction each (the 1h scan's state back to the 4h scan's), then nothing over another cycle.
    const corrected = await changesOf(ctx, ids);
    expect(corrected.stateChanges.length - before.stateChanges.length).toBe(legacy.length);
    expect(corrected.ledgerEvents.length - before.ledgerEvents.length).toBe(legacy.length);
    await ctx.services.runs.persist('4h');
    await ctx.services.runs.persist('1h');
    const after = await changesOf(ctx, [...ids, ...ids.map((id) => `${id}/PT1H`)]);
    expect(after.stateChanges.length).toBe(corrected.stateChanges.length);
    expect(after.ledgerEvents.length).toBe(corrected.ledgerEvents.length);
    // The ledger only grew: every record written before is there as it was.
    const records = await ctx.services.database.db.select().from(ledgerRecords).orderBy(ledgerRecords.seq);
    expect(records.slice(0, ledgerBefore.length)).toEqual(ledgerBefore as typeof records);
    expect((await verifyLedger(ctx.services.ledger)).ok).toBe(true);
  }, 180_000);
});
