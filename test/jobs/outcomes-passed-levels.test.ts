/**
 * Issue 14: every ledger record resolves to an outcome, including records
 * whose entry had already passed a level (a signal surfaced with its close
 * beyond target1, or through its stop) that the outcome kernel refuses. Such a
 * record, written by an earlier version and never rewritten, gets an appended
 * outcome: a scratch that was never entered, at its entry, R 0, with a note
 * (jobs/outcomes). The first records are the ones the service wrote on KR's
 * real bars (test/fixtures/geometry-defects) as of 2024-03-08; the last test
 * boots the synthetic market on a day whose run used to log two "outcome
 * unresolvable" warnings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { LedgerEntry } from '../../src/db/repositories/ledger';
import { resolveOutcomes } from '../../src/jobs/outcomes';
import { verifyLedger } from '../../src/ledger/verify';
import { createCsvProvider } from '../../src/providers/csv';
import { createSyntheticProvider } from '../../src/providers/synthetic';
import { createTestContext, type TestContext } from '../helpers/app';
import { GEOMETRY_FIXTURES } from '../helpers/geometry-fixtures';

const MARCH_7 = '2024-03-07T00:00:00.000Z';
const MARCH_8 = '2024-03-08T00:00:00.000Z';

/** A ledger signal record as the service writes it (repositories/scans `signalEntry`), for KR. */
function record(patternType: string, direction: 'long' | 'short', levels: { triggerPrice: number; target1: number; stopLoss: number | null }, state: string, priceAtDetection: number, at = MARCH_8): LedgerEntry {
  const id = `KR-${patternType}-${at}`;
  return {
    kind: 'signal',
    signalId: id,
    patternType,
    scoreBand: 'watchlist',
    finalScore: 60,
    detectedAt: new Date(at),
    data: { id, symbol: 'KR', timeframe: 'daily', patternType, direction, detectedAt: at, surfacedAt: at, state, ...levels, finalScore: 60, scoreBand: 'watchlist', priceAtDetection },
  };
}

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({ provider: createCsvProvider({ dir: GEOMETRY_FIXTURES }) });
  await ctx.services.ledger.append([
    // what the scan surfaced on 2024-03-08 before issue 14: confirmed at 55.97, its target 53.93 already passed
    record('new_high_52w', 'long', { triggerPrice: 50.36, target1: 53.93, stopLoss: 48.57 }, 'confirmed', 55.970001),
    // a short entered below its target, and a long entered through its stop
    record('range_breakdown', 'short', { triggerPrice: 57, target1: 56, stopLoss: 58 }, 'triggered', 55.970001),
    record('flat_base', 'long', { triggerPrice: 55, target1: 60, stopLoss: 56.5 }, 'triggered', 55.970001),
    // a record without a stop
    record('vcp', 'long', { triggerPrice: 55, target1: 60, stopLoss: null }, 'triggered', 55.970001),
    // surfaced forming on 03-07, triggered on 03-08 by a close (55.97) already beyond its 55.50 target
    record('cup_with_handle', 'long', { triggerPrice: 55.2, target1: 55.5, stopLoss: 52 }, 'forming', 55.48, MARCH_7),
    { kind: 'event', signalId: `KR-cup_with_handle-${MARCH_7}`, data: { from: 'forming', to: 'triggered', price: 55.970001, at: MARCH_8, runId: 'run_test' } },
  ]);
});
afterAll(async () => {
  await ctx.close();
});

describe('records whose entry had passed a level', () => {
  it('resolve at once as never-entered scratches at their entry, R 0, each with a note; the chain still verifies', async () => {
    const bodies = (await ctx.services.ledger.page(0, 100)).map((r) => r.body);
    const run = await resolveOutcomes(ctx.services);
    expect(run).toEqual({ checked: 5, resolved: 5, stillOpen: 0, unresolvable: 0 });
    const rows = await ctx.services.ledger.followUps(['new_high_52w', 'range_breakdown', 'flat_base', 'vcp'].map((t) => `KR-${t}-${MARCH_8}`).concat(`KR-cup_with_handle-${MARCH_7}`));
    const outcomes = new Map(rows.filter((r) => r.kind === 'outcome').map((r) => [r.signalId.split('-')[1], JSON.parse(r.body).data]));
    const none = { outcome: 'scratch', entered: false, rMultiple: 0, mfeR: 0, maeR: 0, barsHeld: 0, daysHeld: 0 };
    expect(outcomes.get('new_high_52w')).toEqual({
      ...none,
      mfePct: 0,
      maePct: 0,
      entry: 55.970001,
      exitPrice: 55.970001,
      exitAt: MARCH_8,
      note: 'entry 55.97 already at or beyond target1 53.93: the setup had ended, no trade to take',
    });
    expect(outcomes.get('range_breakdown')).toMatchObject({ ...none, note: 'entry 55.97 already at or beyond target1 56: the setup had ended, no trade to take' });
    expect(outcomes.get('flat_base')).toMatchObject({ ...none, note: 'entry 55.97 already at or through its stop 56.5: the setup had ended, no trade to take' });
    expect(outcomes.get('vcp')).toMatchObject({ ...none, note: 'no stop: no risk to measure R by' });
    expect(outcomes.get('cup_with_handle')).toMatchObject({ ...none, entry: 55.970001, exitAt: MARCH_8 });
    // appended, never rewritten: the records written before are byte for byte the same, and the chain verifies
    expect((await ctx.services.ledger.page(0, 100)).slice(0, bodies.length).map((r) => r.body)).toEqual(bodies);
    expect((await verifyLedger(ctx.services.ledger)).ok).toBe(true);
  });

  it('appends nothing more on a second run', async () => {
    expect(await resolveOutcomes(ctx.services)).toEqual({ checked: 0, resolved: 0, stillOpen: 0, unresolvable: 0 });
  });
});

describe('a synthetic boot', () => {
  // Seed 42 on 2026-11-24 at 17:10 UTC: the daily run used to surface MSI's and STLD's
  // gap-and-go longs with their stops above their entries, and log them unresolvable.
  it('surfaces no record the outcome job cannot resolve', async () => {
    const boot = await createTestContext({ provider: createSyntheticProvider({ seed: 42, now: () => Date.UTC(2026, 10, 24, 17, 10) }) });
    try {
      await boot.services.runs.persist('daily');
      const signals = (await boot.services.ledger.page(0, 10_000)).filter((r) => r.kind === 'signal').map((r) => JSON.parse(r.body).data);
      expect(signals.length).toBeGreaterThan(0);
      for (const s of signals) {
        const long = s.direction === 'long';
        expect(long ? s.stopLoss < s.triggerPrice && s.triggerPrice < s.target1 : s.target1 < s.triggerPrice && s.triggerPrice < s.stopLoss).toBe(true);
        if (s.state !== 'forming') expect(long ? s.stopLoss < s.priceAtDetection && s.priceAtDetection < s.target1 : s.target1 < s.priceAtDetection && s.priceAtDetection < s.stopLoss).toBe(true);
      }
      expect((await resolveOutcomes(boot.services)).unresolvable).toBe(0);
    } finally {
      await boot.close();
    }
  });
});
