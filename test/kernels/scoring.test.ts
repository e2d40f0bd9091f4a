import { describe, expect, it } from 'bun:test';
import { percentileRanks, rsScore } from '../../src/kernels/rs-rank';
import { SCORE_TABLE } from '../../src/kernels/score-table';
import fc from 'fast-check';
import { PATTERN_TYPES, SCORE_COMPONENTS, type Direction, type ScoreComponent } from '../../src/domain/signal';
import { allFeatures, cdfAt, FEATURE_NAMES, proximityComponent, RANK_RULES, rankOf, rankToScore, score, SCORE_FEATURES, scoreBand, scoreFeatures, scoreModel, tightnessComponent, volumeComponent } from '../../src/kernels/scoring';

describe('scoring', () => {
  const setup = { patternQuality: 0.8, breakoutVolume: 0.4, rsRank: 0.9, trendTemplate: 1, proximity: 0.5, tightness: 0.6, regime: 1 };
  it('bands by the DESIGN thresholds', () => {
    expect([85, 84.9, 70, 69.9, 55, 54.9, 0].map(scoreBand)).toEqual(['elite', 'strong', 'strong', 'watchlist', 'watchlist', 'ignore', 'ignore']);
  });
  it('puts the band floors at the training shares of the rank it is given', () => {
    expect([0, 0.65, 0.9, 0.98, 1].map((x) => rankToScore(x, [0.65, 0.9, 0.98]))).toEqual([0, 55, 70, 85, 100]);
    expect(rankToScore(0.325, [0.65, 0.9, 0.98])).toBeCloseTo(27.5, 12);
    expect(rankToScore(0.94, [0.65, 0.9, 0.98])).toBeCloseTo(77.5, 12);
    expect([0, 0.5, 0.75, 0.9, 1].map((x) => rankToScore(x, [0.5, 0.75, 0.9]))).toEqual([0, 55, 70, 85, 100]);
    // The table's own shares: floors at the training 65th, 90th and 98th percentiles of the rank.
    expect(SCORE_TABLE.bandShares).toEqual([0.65, 0.9, 0.98]);
    expect([0, 0.65, 0.9, 0.98, 1].map((x) => rankToScore(x))).toEqual([0, 55, 70, 85, 100]);
    expect(rankToScore(0.99)).toBeCloseTo(92.5, 12);
  });
  it('combines the two training percentiles by the rule it is given', () => {
    expect(RANK_RULES).toEqual(['min', 'mean', 'expectedR', 'pWin']);
    expect(RANK_RULES.map((r) => rankOf(r, 0.8, 0.4))).toEqual([0.4, (0.8 + 0.4) / 2, 0.8, 0.4]);
  });
  it('reads a CDF from percentile knots, linear between them', () => {
    expect(cdfAt([0, 1, 2], -1)).toBe(0);
    expect(cdfAt([0, 1, 2], 0.5)).toBeCloseTo(0.25, 12);
    expect(cdfAt([0, 1, 2], 1.5)).toBeCloseTo(0.75, 12);
    expect(cdfAt([0, 1, 2], 2)).toBe(1);
    expect(cdfAt([0, 1, 1, 2], 1)).toBeCloseTo(2 / 3, 12); // ties: the last knot at or below
  });
  it('scores as an independent numpy evaluation of the fitted table does', () => {
    // Reference: the table's JSON read by Python and evaluated with numpy (the formulas of the module comment,
    // the lower of the two percentiles as the rank, np.interp through (0, 0), (0.65, 55), (0.9, 70), (0.98, 85), (1, 100) for g).
    expect(score(setup, 'long', 'range_breakout')).toMatchObject({ finalScore: 81.5, band: 'strong', confidence: 0.37 });
    expect(score(setup, 'short', 'range_breakdown')).toMatchObject({ finalScore: 29.4, band: 'ignore', confidence: 0.26 });
    expect(score(setup, 'long', 'flat_base')).toMatchObject({ finalScore: 72.6, band: 'strong', confidence: 0.34 });
    expect(score(setup, 'long', 'bull_flag')).toMatchObject({ finalScore: 54.5, band: 'ignore', confidence: 0.26 });
    expect(score({ patternQuality: 0.9, breakoutVolume: 1, rsRank: 0.9, trendTemplate: 1, proximity: 0.9, tightness: 0.9, regime: 1 }, 'long', 'gap_and_go')).toMatchObject({ finalScore: 97.9, band: 'elite', confidence: 0.52 });
    const vcp = scoreModel(setup, 'long', 'vcp');
    expect(vcp.finalScore).toBe(51.8);
    expect(vcp.expectedR).toBeCloseTo(0.29679, 5);
    expect(vcp.share).toBeCloseTo(0.612388, 5);
    // A high E[R] with a low P(win) ranks by the low one: the cup's E[R] is in the training top 10%, its P(win) is not.
    const cup = scoreModel({ patternQuality: 0.5, breakoutVolume: 0, rsRank: 0.5, trendTemplate: 0.5, proximity: 0.5, tightness: 0.5, regime: 0.5 }, 'long', 'cup_with_handle');
    expect(cup.finalScore).toBe(3.8);
    expect(cup.pWin).toBeCloseTo(0.144764, 5);
    expect(cup.expectedR).toBeCloseTo(0.18803, 5);
    expect(cup.share).toBeCloseTo(0.044368, 5);
    expect(cdfAt(SCORE_TABLE.expectedRKnots, cup.expectedR)).toBeGreaterThan(0.9);
  });
  it('ranks by the lower of the two percentiles: a setup at least as high on both never scores lower', () => {
    const component = fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null });
    const setupArb = fc.record({
      components: fc.record(Object.fromEntries(SCORE_COMPONENTS.map((c) => [c, component])) as Record<ScoreComponent, typeof component>),
      direction: fc.constantFrom<Direction>('long', 'short'),
      pattern: fc.constantFrom(...PATTERN_TYPES),
    });
    const percentiles = (m: ReturnType<typeof scoreModel>) => [cdfAt(SCORE_TABLE.expectedRKnots, m.expectedR), cdfAt(SCORE_TABLE.winKnots, m.pWin)] as const;
    let pairs = 0;
    fc.assert(
      fc.property(setupArb, setupArb, (a, b) => {
        const ma = scoreModel(a.components, a.direction, a.pattern);
        const mb = scoreModel(b.components, b.direction, b.pattern);
        const [ea, wa] = percentiles(ma);
        const [eb, wb] = percentiles(mb);
        pairs++;
        expect(ma.rank).toBe(Math.min(ea, wa));
        if (Math.min(ea, wa) >= Math.min(eb, wb)) expect(ma.finalScore).toBeGreaterThanOrEqual(mb.finalScore);
        if (Math.min(eb, wb) >= Math.min(ea, wa)) expect(mb.finalScore).toBeGreaterThanOrEqual(ma.finalScore);
        // Elite only when both percentiles reach the training 98th percentile of the rank.
        if (ma.finalScore >= 85) expect(Math.min(ea, wa)).toBeGreaterThanOrEqual(SCORE_TABLE.rankKnots[98]!);
      }),
      { numRuns: 500, seed: 14 },
    );
    expect(pairs).toBe(500);
  });
  it('was fitted on the training years only', () => {
    expect(SCORE_TABLE.fittedOn.to <= '2016-12-31').toBe(true);
    expect(SCORE_TABLE.fittedOn.trades).toBe(204_098);
    expect(SCORE_TABLE.rank).toBe('min');
    expect(SCORE_TABLE.win.coefficients.length as number).toBe(SCORE_FEATURES.length);
    for (const k of [SCORE_TABLE.expectedRKnots, SCORE_TABLE.winKnots, SCORE_TABLE.rankKnots]) {
      expect(k.length).toBe(101);
      expect(k.every((v, i) => i === 0 || v >= k[i - 1]!)).toBe(true);
    }
  });
  it('gives confidence as P(win), which breakout volume raises; a missing component counts 0', () => {
    const base = { ...setup, breakoutVolume: 0 };
    const p = (c: typeof base | typeof setup) => scoreModel(c, 'long', 'flat_base').pWin;
    expect(p({ ...base, breakoutVolume: 1 })).toBeGreaterThan(p(base));
    expect(score({ ...base, breakoutVolume: null }, 'long', 'flat_base')).toEqual({ ...score(base, 'long', 'flat_base'), components: { ...base, breakoutVolume: null } });
    expect(scoreModel(base, 'long', 'flat_base').finalScore).toBeGreaterThanOrEqual(0);
  });
  it('scores a short below the same long (shorts earned less in training)', () => {
    expect(scoreModel(setup, 'short', 'donchian_55').finalScore).toBeLessThan(scoreModel(setup, 'long', 'donchian_55').finalScore);
  });
  it('builds the features: components clipped to [0, 1], short, one pattern indicator, short × components', () => {
    const all = allFeatures({ ...setup, regime: null, rsRank: 1.4 }, 'short', 'vcp');
    expect(all.length).toBe(FEATURE_NAMES.length);
    expect(all.slice(0, 8)).toEqual([0.8, 0.4, 1, 1, 0.5, 0.6, 0, 1]);
    expect(all[FEATURE_NAMES.indexOf('pattern:vcp')]).toBe(1);
    expect(all.slice(8, 8 + PATTERN_TYPES.length - 1).reduce((a, b) => a + b, 0)).toBe(1);
    expect(all.slice(-7)).toEqual([0.8, 0.4, 1, 1, 0.5, 0.6, 0]);
    expect(allFeatures(setup, 'long', 'flat_base').slice(7)).toEqual(new Array(FEATURE_NAMES.length - 7).fill(0));
    // The table's features, in its order; or any names asked for.
    expect(scoreFeatures(setup, 'short', 'vcp')).toEqual(SCORE_FEATURES.map((n) => allFeatures(setup, 'short', 'vcp')[FEATURE_NAMES.indexOf(n)]!));
    expect(scoreFeatures(setup, 'short', 'vcp', ['short×rsRank', 'pattern:vcp'])).toEqual([0.9, 1]);
    expect(() => scoreFeatures(setup, 'long', 'vcp', ['volume'])).toThrow(RangeError);
  });
  it('maps raw measures onto components', () => {
    expect(volumeComponent(1)).toBe(0);
    expect(volumeComponent(2.5)).toBe(1);
    expect(volumeComponent(1.75)).toBeCloseTo(0.5, 12);
    expect(proximityComponent(-2.5)).toBeCloseTo(0.5, 12);
    expect(proximityComponent(7)).toBe(0);
    expect(tightnessComponent(10)).toBeCloseTo(0.9, 12);
    expect(volumeComponent(null)).toBeNull();
  });
});

describe('IBD-style RS rank', () => {
  it('weights the latest quarter double (hand computation)', () => {
    const close = new Float64Array(253).fill(100);
    close[252 - 63] = 80; // ROC(63) = 100/80 − 1 = 0.25
    close[0] = 50; // ROC(252) = 1
    // 0.4·0.25 + 0.2·0 + 0.2·0 + 0.2·1 = 0.3
    expect(rsScore(close, 252)).toBeCloseTo(0.3, 12);
    expect(rsScore(close, 251)).toBeNaN();
  });
  it('ranks 1..99, ties share a rank, NaN stays NaN', () => {
    expect(percentileRanks([0.1, 0.3, 0.2])).toEqual([1, 99, 50]);
    expect(percentileRanks([0.2, 0.2, NaN, 0.5])).toEqual([1, 1, NaN, 99]);
    expect(percentileRanks([0.4])).toEqual([50]);
  });
});
