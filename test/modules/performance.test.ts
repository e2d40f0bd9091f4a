/**
 * Monthly rollup and scorecard against hand computation, on a ledger written
 * by hand: seven signals in March 2025 and one in April.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test';
import type { Static } from 'elysia';
import { MonthlyResponse, ScorecardResponse } from '../../src/modules/transparency/model';
import { scorecard } from '../../src/modules/transparency/performance';
import { createTestContext, errorBody, type TestContext } from '../helpers/app';

type Row = [id: string, pattern: string, band: string, timeframe: string, direction: string, regime: string, detected: string, outcome: string | null, entered: boolean, r: number, days: number];
const ROWS: Row[] = [
  ['A', 'flat_base', 'strong', 'daily', 'long', 'risk_on', '2025-03-03', 'win', true, 2, 4],
  ['B', 'flat_base', 'strong', 'daily', 'long', 'risk_on', '2025-03-10', 'loss', true, -1, 2],
  ['C', 'vcp', 'elite', 'daily', 'long', 'neutral', '2025-03-17', 'win', true, 1.5, 6],
  ['D', 'vcp', 'elite', 'daily', 'long', 'neutral', '2025-03-24', 'scratch', true, -0.2, 3],
  ['E', 'range_breakdown', 'watchlist', '1h', 'short', 'risk_off', '2025-03-25', 'loss', true, -1.4, 1],
  ['F', 'vcp', 'strong', 'daily', 'long', 'neutral', '2025-03-26', 'scratch', false, 0, 0],
  ['G', 'flat_base', 'strong', 'daily', 'long', 'risk_on', '2025-03-31', null, true, 0, 0],
  ['H', 'vcp', 'elite', 'daily', 'long', 'risk_on', '2025-04-02', 'win', true, 3, 8],
];

/** Wilson score interval of a rate p over n (whole or effective) trials, written out (Wilson 1927), z = 1.96. */
function wilson(p: number, n: number) {
  const z = 1.959963984540054;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return { lower: centre - half, upper: centre + half };
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
  await ctx.services.ledger.append(
    ROWS.map(([id, patternType, scoreBand, timeframe, direction, regime, detected]) => ({
      kind: 'signal' as const,
      signalId: id,
      patternType,
      scoreBand,
      finalScore: 70,
      detectedAt: new Date(`${detected}T00:00:00Z`),
      data: { id, symbol: `S${id}`, patternType, scoreBand, timeframe, direction, regime, detectedAt: `${detected}T00:00:00.000Z` },
    })),
  );
  await ctx.services.ledger.append(
    ROWS.filter((r) => r[7] !== null).map(([id, , , , , , , outcome, entered, rMultiple, daysHeld]) => ({ kind: 'outcome' as const, signalId: id, data: { outcome, entered, rMultiple, daysHeld } })),
  );
});
afterAll(() => ctx.close());

type Monthly = Static<typeof MonthlyResponse>;
type Scorecard = Static<typeof ScorecardResponse>;

describe('GET /api/transparency/monthly', () => {
  it('computes the March figures as by hand', async () => {
    const { status, body } = await ctx.json<Monthly>('/api/transparency/monthly?month=2025-03');
    expect(status).toBe(200);
    expect(body.month).toBe('2025-03');
    expect(body.from).toBe('2025-03-01T00:00:00.000Z');
    expect(body.to).toBe('2025-03-31T23:59:59.999Z');
    const s = body.summary;
    // A, B, C, D, E closed (F never entered, G open): 2 wins, 2 losses, 1 scratch.
    expect(s).toMatchObject({ signals: 7, open: 1, closed: 5, wins: 2, losses: 2, scratches: 1, neverEntered: 1, hitRate: 0.4 });
    expect(s.totalR).toBeCloseTo(0.9, 10); // 2 − 1 + 1.5 − 0.2 − 1.4
    expect(s.avgR).toBeCloseTo(0.18, 10);
    expect(s.expectancyR).toBeCloseTo(0.18, 10);
    expect(s.profitFactor).toBeCloseTo(3.5 / 2.6, 4);
    expect(s.avgDaysHeld).toBeCloseTo(3.2, 10);
    // Intervals clustered by week of detection (Mondays 3, 10, 17, 24 March): [A], [B], [C], [D, E] — 4 weeks, 5 trades.
    // Mean R: residuals Σ R_week − 0.18·n_week = 1.82, −1.18, 1.32, −1.96; v = 4/3 · Σ² / 5²; t(0.975, 3) = 3.182446.
    const v = ((4 / 3) * (1.82 ** 2 + 1.18 ** 2 + 1.32 ** 2 + 1.96 ** 2)) / 25;
    expect(s.avgRInterval.lower).toBeCloseTo(0.18 - 3.182446 * Math.sqrt(v), 3);
    expect(s.avgRInterval.upper).toBeCloseTo(0.18 + 3.182446 * Math.sqrt(v), 3);
    // Hit rate: residuals wins_week − 0.4·n_week = 0.6, −0.4, 0.6, −0.8; design effect = v ÷ (0.4 · 0.6 / 5); Wilson at 5 ÷ deff.
    const deff = ((4 / 3) * (0.36 + 0.16 + 0.36 + 0.64)) / 25 / (0.24 / 5);
    const w = wilson(0.4, 5 / deff);
    expect(s.hitRateInterval.lower).toBeCloseTo(w.lower, 4);
    expect(s.hitRateInterval.upper).toBeCloseTo(w.upper, 4);
    // One week's trades alone say nothing about the variation between weeks.
    expect(body.byPattern.range_breakdown!.avgRInterval).toEqual({ lower: null, upper: null });

    expect(body.byPattern.flat_base).toMatchObject({ signals: 3, open: 1, closed: 2, wins: 1, hitRate: 0.5, avgR: 0.5 });
    expect(body.byPattern.vcp).toMatchObject({ signals: 3, closed: 2, neverEntered: 1, avgR: 0.65 });
    expect(body.byPattern.range_breakdown).toMatchObject({ closed: 1, losses: 1, avgR: -1.4, profitFactor: 0 });
    expect(body.byDirection.short).toMatchObject({ signals: 1, closed: 1 });
    expect(body.byTimeframe['1h']!.signals).toBe(1);
    expect(body.byBand.elite).toMatchObject({ closed: 2, wins: 1 });
    expect(body.signals.map((x) => x.id)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G']);
    expect(body.signals.find((x) => x.id === 'G')!.outcome).toBe('open');
    expect(body.ledgerHead.seq).toBe(15);
  });

  it('answers an empty month with zeros and nulls', async () => {
    const { body } = await ctx.json<Monthly>('/api/transparency/monthly?month=2024-02');
    expect(body.summary).toMatchObject({ signals: 0, closed: 0, hitRate: null, avgR: null, totalR: 0, hitRateInterval: { lower: null, upper: null } });
    expect(body.to).toBe('2024-02-29T23:59:59.999Z');
  });

  it.each(['', '?month=', '?month=2025-13', '?month=2025-00', '?month=2025-3', '?month=March', '?month=2025-03-01'])('answers 400 for %s', async (query) => {
    const response = await ctx.request(`/api/transparency/monthly${query}`);
    expect(response.status).toBe(400);
    expect((await errorBody(response)).error).toContain("'month'");
  });
});

describe('GET /api/scorecard', () => {
  it('gives all-time figures, calibration by band, pattern and regime, and the band statement', async () => {
    const { status, body } = await ctx.json<Scorecard>('/api/scorecard');
    expect(status).toBe(200);
    expect(body.allTime).toMatchObject({ signals: 8, closed: 6, wins: 3, losses: 2, scratches: 1, hitRate: 0.5 });
    expect(body.allTime.totalR).toBeCloseTo(3.9, 10);
    expect(body.calibration.byBand.elite).toMatchObject({ closed: 3, wins: 2 });
    expect(body.calibration.byBand.elite!.avgR).toBeCloseTo(4.3 / 3, 4);
    expect(body.calibration.byBand.ignore).toMatchObject({ signals: 0, closed: 0, hitRate: null });
    expect(Object.keys(body.calibration.byRegime).sort()).toEqual(['neutral', 'risk_off', 'risk_on']);
    expect(body.calibration.byRegime.risk_on).toMatchObject({ signals: 4, closed: 3, wins: 2 });
    expect(body.calibration.byPattern.vcp).toMatchObject({ signals: 4, closed: 3 });
    expect(Object.keys(body.calibration.byDirection).length).toBeGreaterThan(0);
    // These records carry no confidence: nothing to judge it on (the figures: test/ledger/performance-confidence).
    expect(body.calibration.confidence).toEqual({ trades: 0, brier: null, baseRate: null, referenceBrier: null, skill: null, reliability: [] });
    // Every band has fewer than 20 closed trades: no claim either way.
    expect(body.higherBandsDoBetter.verdict).toBe('insufficient');
    expect(body.higherBandsDoBetter.statement).toStartWith('Too few trades');
  });

  it('counts trailing windows by detection date', async () => {
    const card = await scorecard(ctx.services, { source: 'live' }, Date.parse('2025-04-20T12:00:00Z'));
    // Since 2025-03-21: D, E, F, G, H → closed D, E, H.
    expect(card.trailing['30d']).toMatchObject({ signals: 5, closed: 3, wins: 1 });
    expect(card.trailing['30d']!.totalR).toBeCloseTo(1.4, 10);
    expect(card.trailing['90d']!.signals).toBe(8);
    expect(card.trailing['365d']!.signals).toBe(8);
  });

  it('is recomputed once a record is appended', async () => {
    const before = (await ctx.json<Scorecard>('/api/scorecard')).body;
    await ctx.services.ledger.append([{ kind: 'signal', signalId: 'Z', patternType: 'vcp', scoreBand: 'ignore', finalScore: 40, detectedAt: new Date('2025-04-03T00:00:00Z'), data: { id: 'Z', patternType: 'vcp', scoreBand: 'ignore', timeframe: 'daily', direction: 'long', regime: 'neutral', detectedAt: '2025-04-03T00:00:00.000Z' } }]);
    const after = (await ctx.json<Scorecard>('/api/scorecard')).body;
    expect(after.allTime.signals).toBe(before.allTime.signals + 1);
    expect(after.ledgerHead.seq).toBe(before.ledgerHead.seq + 1);
  });
});
