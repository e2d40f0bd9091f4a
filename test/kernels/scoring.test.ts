import { describe, expect, it } from 'bun:test';
import { percentileRanks, rsScore } from '../../src/kernels/rs-rank';
import { CONFIDENCE_FIT } from '../../src/kernels/confidence';
import { proximityComponent, score, SCORE_WEIGHTS, scoreBand, tightnessComponent, volumeComponent } from '../../src/kernels/scoring';

describe('scoring', () => {
  it('has weights that sum to 1', () => {
    expect(Object.values(SCORE_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
  it('bands by the DESIGN thresholds', () => {
    expect([85, 84.9, 70, 69.9, 55, 54.9, 0].map(scoreBand)).toEqual(['elite', 'strong', 'strong', 'watchlist', 'watchlist', 'ignore', 'ignore']);
  });
  it('scores a perfect setup 100 and an empty one 0', () => {
    const all = (v: number) => ({ patternQuality: v, breakoutVolume: v, rsRank: v, trendTemplate: v, proximity: v, tightness: v, regime: v });
    expect(score(all(1))).toMatchObject({ finalScore: 100, band: 'elite' });
    expect(score(all(0))).toMatchObject({ finalScore: 0, band: 'ignore' });
  });
  it('gives the calibrated probability of a win as confidence (the fitted table, by hand)', () => {
    const all = (v: number) => ({ patternQuality: v, breakoutVolume: v, rsRank: v, trendTemplate: v, proximity: v, tightness: v, regime: v });
    const p = (z: number) => Math.round(100 / (1 + Math.exp(-z))) / 100;
    const slopes = Object.values(CONFIDENCE_FIT.coefficients).reduce((a, b) => a + b, 0);
    // All components 1, long: z = −1.119817 + Σ slopes (0.877438) = −0.242379 → 0.44; short adds −0.418196.
    expect(slopes).toBeCloseTo(0.877438, 6);
    expect(score(all(1)).confidence).toBe(p(CONFIDENCE_FIT.intercept + slopes));
    expect(score(all(1)).confidence).toBe(0.44);
    expect(score(all(1), 'short').confidence).toBe(p(CONFIDENCE_FIT.intercept + slopes + CONFIDENCE_FIT.short));
    expect(score(all(0)).confidence).toBe(0.25); // 1 / (1 + e^1.119817) = 0.246
    // Breakout volume raises it most, a missing one counts 0.
    const base = { patternQuality: 0.5, breakoutVolume: 0, rsRank: 0.5, trendTemplate: 0.5, proximity: 0.5, tightness: 0.5, regime: 0.5 };
    expect(score({ ...base, breakoutVolume: 1 }).confidence).toBeGreaterThan(score(base).confidence);
    expect(score({ ...base, breakoutVolume: null }).confidence).toBe(score(base).confidence);
    expect(CONFIDENCE_FIT.fittedOn).toMatchObject({ from: '2005-01-03', to: '2016-12-30' });
  });
  it('weights each component as the table says (hand computation)', () => {
    // 0.25·0.8 + 0.15·0.4 + 0.2·0.9 + 0.15·1 + 0.1·0.5 + 0.1·0.6 + 0.05·1 = 0.2+0.06+0.18+0.15+0.05+0.06+0.05 = 0.75
    const s = score({ patternQuality: 0.8, breakoutVolume: 0.4, rsRank: 0.9, trendTemplate: 1, proximity: 0.5, tightness: 0.6, regime: 1 });
    expect(s.finalScore).toBe(75);
    expect(s.band).toBe('strong');
  });
  it('counts missing inputs as 0', () => {
    const s = score({ patternQuality: 1, breakoutVolume: null, rsRank: 1, trendTemplate: 1, proximity: 1, tightness: 1, regime: 1 });
    expect(s.finalScore).toBe(85);
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
