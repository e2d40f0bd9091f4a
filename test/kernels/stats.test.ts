import { describe, expect, it } from 'bun:test';
import {
  averageRanks,
  expectancy,
  mean,
  meanInterval,
  normalQuantile,
  profitFactor,
  sampleStdDev,
  scoreBandMonotonicity,
  spearman,
  studentTQuantile,
  wilsonInterval,
  Z_95,
  zForConfidence,
  type BandResult,
} from '../../src/kernels/stats';

// Sources of expected numbers:
//  NIST   NIST/SEMATECH e-Handbook of Statistical Methods, §1.3.6.7.1 (normal) and
//         §1.3.6.7.2 (critical values of Student's t), 3 decimals.
//  SciPy  scipy.stats norm.ppf / t.ppf (SciPy 1.17.1), for more digits.
//  N98    Newcombe, Statistics in Medicine 17 (1998) 857–872, the score method (method 3)
//         on his four worked examples, 4 decimals.
//  hand   worked in the comment beside the test.

describe('normal quantile (AS 241)', () => {
  it('matches the NIST table and SciPy', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.96, 2); // NIST
    expect(Math.abs(normalQuantile(0.975) - 1.959963984540054)).toBeLessThan(1e-15); // SciPy
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489004, 14); // SciPy
    expect(normalQuantile(0.95)).toBeCloseTo(1.6448536269514722, 14); // SciPy
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 12); // SciPy, the far tail (r > 5 branch)
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.3)).toBeCloseTo(-normalQuantile(0.7), 15);
  });

  it('gives the z of a two-sided interval, 95% exactly 1.959963984540054', () => {
    expect(zForConfidence()).toBe(Z_95);
    expect(zForConfidence(0.95)).toBe(1.959963984540054);
    expect(zForConfidence(0.99)).toBeCloseTo(2.5758293035489004, 14); // SciPy norm.ppf(0.995)
    expect(zForConfidence(0.9)).toBeCloseTo(1.6448536269514722, 14);
  });

  it('rejects probabilities outside (0, 1)', () => {
    for (const p of [0, 1, -0.1, NaN]) expect(() => normalQuantile(p)).toThrow(RangeError);
    for (const c of [0, 1, 95]) expect(() => zForConfidence(c)).toThrow(RangeError);
  });
});

describe("Student's t quantile", () => {
  it('matches the NIST table of critical values', () => {
    const table: [p: number, df: number, t: number][] = [
      [0.975, 1, 12.706],
      [0.975, 2, 4.303],
      [0.975, 4, 2.776],
      [0.975, 5, 2.571],
      [0.975, 9, 2.262],
      [0.975, 10, 2.228],
      [0.975, 30, 2.042],
      [0.975, 100, 1.984],
      [0.95, 3, 2.353],
      [0.9, 10, 1.372],
      [0.99, 10, 2.764],
      [0.995, 5, 4.032],
      [0.999, 10, 4.144],
    ];
    for (const [p, df, t] of table) expect([p, df, studentTQuantile(p, df)]).toEqual([p, df, expect.closeTo(t, 3)]);
  });

  it('matches SciPy to 12 digits, including fractional df and the lower tail', () => {
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228138851986274, 12);
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.706204736174694, 11);
    expect(studentTQuantile(0.975, 0.5)).toBeCloseTo(164.55767348048818, 9);
    expect(studentTQuantile(0.025, 10)).toBeCloseTo(-2.228138851986274, 12);
    expect(studentTQuantile(0.7, 4)).toBeCloseTo(0.5686490630497045, 13);
    expect(studentTQuantile(0.5000001, 3) / 2.720699044672105e-7).toBeCloseTo(1, 9); // near the median
    expect(studentTQuantile(1e-12, 3)).toBeCloseTo(-10331.108244292487, 6);
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.959966356814107, 13);
  });

  it('is continuous where it switches to the large-df series, and tends to z', () => {
    expect(studentTQuantile(0.975, 9999.999)).toBeCloseTo(studentTQuantile(0.975, 1e4), 10);
    expect(studentTQuantile(0.975, Infinity)).toBe(normalQuantile(0.975));
  });

  it('is the exact closed form at 1 and 2 df (hand: t = tan(π(p − ½)), t = (2p − 1)/√(2p(1 − p)))', () => {
    for (const p of [0.6, 0.9, 0.99]) {
      expect(studentTQuantile(p, 1)).toBeCloseTo(Math.tan(Math.PI * (p - 0.5)), 12);
      expect(studentTQuantile(p, 2)).toBeCloseTo((2 * p - 1) / Math.sqrt(2 * p * (1 - p)), 12);
    }
  });

  it('rejects a bad p or df', () => {
    expect(() => studentTQuantile(1, 5)).toThrow(RangeError);
    expect(() => studentTQuantile(0.9, 0)).toThrow(RangeError);
    expect(() => studentTQuantile(0.9, NaN)).toThrow(RangeError);
  });
});

describe('Wilson score interval', () => {
  it("reproduces Newcombe's worked examples", () => {
    const n98: [x: number, n: number, lower: number, upper: number][] = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ];
    for (const [x, n, lower, upper] of n98) {
      const w = wilsonInterval(x, n);
      expect([x, n, w.lower, w.upper]).toEqual([x, n, expect.closeTo(lower, 4), expect.closeTo(upper, 4)]);
    }
  });

  it('follows the formula (hand: 5 of 10 at 95%)', () => {
    // p̂ = ½, so the centre is ½. z² = 3.841459; 1 + z²/n = 1.3841459.
    // half = 1.959964 / 1.3841459 · √(0.025 + 3.841459/400) = 1.416012 · 0.186020 = 0.263407.
    const w = wilsonInterval(5, 10);
    expect(w.estimate).toBe(0.5);
    expect(w.lower).toBeCloseTo(0.236593, 6);
    expect(w.upper).toBeCloseTo(0.763407, 6);
    // 99%: z = 2.575829, z² = 6.634897, 1 + z²/n = 1.663490, half = 1.548451 · √(0.025 + 0.016587) = 0.315774.
    expect(wilsonInterval(5, 10, 0.99).lower).toBeCloseTo(0.184226, 5);
  });

  it('keeps the ends at exactly 0 and 1, and gives all of [0, 1] with no trials', () => {
    expect(wilsonInterval(0, 20).lower).toBe(0);
    expect(wilsonInterval(20, 20).upper).toBe(1);
    const none = wilsonInterval(0, 0);
    expect([none.lower, none.upper]).toEqual([0, 1]);
    expect(none.estimate).toBeNaN();
  });

  it('rejects impossible counts', () => {
    for (const [x, n] of [[3, 2], [-1, 5], [1.5, 5], [1, NaN]]) expect(() => wilsonInterval(x!, n!)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 5, 1.5)).toThrow(RangeError);
  });
});

describe('mean, standard deviation and the t interval for a mean', () => {
  it('follows the definitions (hand)', () => {
    expect(mean([1, 2, 3, 4, 5])).toBe(3);
    // Σ(x − 3)² = 4 + 1 + 0 + 1 + 4 = 10; 10 / 4 = 2.5
    expect(sampleStdDev([1, 2, 3, 4, 5])).toBeCloseTo(Math.sqrt(2.5), 15);
    expect(sampleStdDev(Float64Array.of(2, 4, 4, 4, 5, 5, 7, 9))).toBeCloseTo(Math.sqrt(32 / 7), 15); // Σ(x − 5)² = 32
  });

  it('gives x̄ ± t(0.975, n − 1) · s/√n (hand, with NIST t(0.975, 4) = 2.776)', () => {
    // s/√n = √2.5/√5 = √0.5 = 0.707107; 2.776445 · 0.707107 = 1.963243
    const ci = meanInterval([1, 2, 3, 4, 5]);
    expect(ci).toMatchObject({ n: 5, mean: 3, df: 4, confidence: 0.95 });
    expect(ci.standardError).toBeCloseTo(Math.SQRT1_2, 15);
    expect(ci.halfWidth).toBeCloseTo(1.963243, 6);
    expect(ci.lower).toBeCloseTo(1.036757, 6);
    expect(ci.upper).toBeCloseTo(4.963243, 6);
  });

  it('gives NaN, not an error, for too little data', () => {
    expect(mean([])).toBeNaN();
    expect(sampleStdDev([4])).toBeNaN();
    const one = meanInterval([0.7]);
    expect(one.mean).toBe(0.7);
    expect(one.lower).toBeNaN();
    expect(one.upper).toBeNaN();
  });

  it('rejects non-finite values', () => {
    expect(() => mean([1, NaN])).toThrow(RangeError);
    expect(() => sampleStdDev([1, Infinity, 2])).toThrow(RangeError);
    expect(() => meanInterval([1, 2], 0)).toThrow(RangeError);
  });
});

describe('expectancy and profit factor', () => {
  const r = [2, -1, 3, -1, 0, -0.5];

  it('is win rate × average win − loss rate × average loss, the mean R per trade (hand)', () => {
    // wins 2 and 3: rate 2/6, average 2.5; losses 1, 1, 0.5: rate 3/6, average 2.5/3; the 0R trade counts in n only.
    // 1/3 · 2.5 − 1/2 · 0.8333 = 0.8333 − 0.4167 = 0.4167 = (2 − 1 + 3 − 1 + 0 − 0.5) / 6
    const e = expectancy(r);
    expect(e.trades).toBe(6);
    expect(e.winRate).toBeCloseTo(1 / 3, 15);
    expect(e.lossRate).toBe(0.5);
    expect(e.averageWinR).toBe(2.5);
    expect(e.averageLossR).toBeCloseTo(2.5 / 3, 15);
    expect(e.expectancyR).toBeCloseTo(e.winRate * e.averageWinR - e.lossRate * e.averageLossR, 15);
    expect(e.expectancyR).toBeCloseTo(mean(r), 15);
  });

  it('handles a side with no trades', () => {
    expect(expectancy([1, 2])).toMatchObject({ winRate: 1, lossRate: 0, averageWinR: 1.5, expectancyR: 1.5 });
    expect(expectancy([1, 2]).averageLossR).toBeNaN();
    expect(expectancy([]).expectancyR).toBeNaN();
  });

  it('divides gross winning R by gross losing R (hand: 5 / 2.5 = 2)', () => {
    expect(profitFactor(r)).toBe(2);
    expect(profitFactor([1, 2])).toBe(Infinity);
    expect(profitFactor([0])).toBeNaN();
    expect(profitFactor([-1])).toBe(0);
    expect(() => profitFactor([1, NaN])).toThrow(RangeError);
  });
});

describe("Spearman's rank correlation", () => {
  it('equals 1 − 6Σd²/(n(n² − 1)) without ties (hand: d = 0, 1, −1, 0 → 1 − 12/60 = 0.8)', () => {
    expect(spearman([1, 2, 3, 4], [0.1, 0.3, 0.2, 0.5])).toBeCloseTo(0.8, 15);
    expect(spearman([1, 2, 3], [9, 5, 1])).toBeCloseTo(-1, 15);
  });

  it('uses average ranks for ties (hand: ranks 1, 2, 3 against 1.5, 1.5, 3 → 1.5/√(2 · 1.5) = √3/2)', () => {
    expect(Array.from(averageRanks([5, 5, 7]))).toEqual([1.5, 1.5, 3]);
    expect(Array.from(averageRanks([3, 1, 3, 2, 3]))).toEqual([4, 1, 4, 2, 4]);
    expect(spearman([1, 2, 3], [1, 1, 2])).toBeCloseTo(Math.sqrt(3) / 2, 15);
  });

  it('is NaN with no order to compare, and rejects mismatched input', () => {
    expect(spearman([1], [2])).toBeNaN();
    expect(spearman([1, 2, 3], [4, 4, 4])).toBeNaN();
    expect(() => spearman([1, 2], [1])).toThrow(RangeError);
    expect(() => spearman([1, 2], [1, NaN])).toThrow(RangeError);
  });
});

describe('do higher score bands do better?', () => {
  // Wilson 95% intervals (hand, by the formula above): 12/80 → 0.0879–0.2441, 16/40 → 0.2635–0.5540,
  // 15/25 → 0.4074–0.7660. So watchlist/strong are apart (0.2441 < 0.2635), strong/elite overlap.
  const bands: BandResult[] = [
    { band: 'ignore', trades: 12, meanR: -0.3, hitRate: 0.25 },
    { band: 'watchlist', trades: 80, meanR: -0.05, hitRate: 0.15 },
    { band: 'strong', trades: 40, meanR: 0.2, hitRate: 0.4 },
    { band: 'elite', trades: 25, meanR: 0.55, hitRate: 0.6 },
  ];

  it('reports a rising ladder with its numbers, pairs and a sentence built from them', () => {
    const m = scoreBandMonotonicity(bands);
    expect(m).toMatchObject({ verdict: 'rising', meanRRho: 1, hitRateRho: 1, bandsUsed: ['watchlist', 'strong', 'elite'], bandsExcluded: [{ band: 'ignore', trades: 12 }] });
    expect(m.steps.map((s) => [s.lower, s.higher, s.hitRateIntervalsOverlap])).toEqual([
      ['watchlist', 'strong', false],
      ['strong', 'elite', true],
    ]);
    expect(m.steps[0]!.meanRDelta).toBeCloseTo(0.25, 15);
    expect(m.steps[1]!.hitRateDelta).toBeCloseTo(0.2, 15);
    expect(m.steps[0]!.lowerHitRate.upper).toBeCloseTo(0.2441, 4);
    expect(m.steps[0]!.higherHitRate.lower).toBeCloseTo(0.2635, 4);
    expect(m.sentence).toBe(
      'Mean R rises with every step up in score band (Spearman ρ = 1.00 across 3 bands with at least 20 trades: ' +
        'watchlist -0.05R on 80, strong 0.20R on 40, elite 0.55R on 25). ' +
        'Hit rates with 95% intervals: watchlist 15% (9%–24%), strong 40% (26%–55%), elite 60% (41%–77%); ' +
        'the intervals are apart for watchlist/strong and overlap for strong/elite, so that difference is not clearly real yet. ' +
        'Left out for fewer than 20 trades: ignore (12).',
    );
  });

  it("judges each step by the bands' own intervals when given (the scorecard's weekly-clustered ones), an unknown bound as 0 or 1", () => {
    const withOwn = bands.map((b) => ({ ...b, hitRateInterval: b.band === 'watchlist' ? { lower: 0.05, upper: 0.3 } : b.band === 'elite' ? { lower: null, upper: null } : { lower: 0.25, upper: 0.55 } }));
    const m = scoreBandMonotonicity(withOwn);
    // watchlist's 0.30 reaches strong's 0.25 (Wilson's 0.2441 did not); elite's unknown interval overlaps everything.
    expect(m.steps.map((s) => s.hitRateIntervalsOverlap)).toEqual([true, true]);
    expect(m.steps[1]!.higherHitRate).toMatchObject({ estimate: 0.6, lower: 0, upper: 1 });
    expect(m.sentence).toContain('watchlist 15% (5%–30%), strong 40% (25%–55%), elite 60% (0%–100%); the intervals overlap at every step');
  });

  it('says so when the ladder is broken (hand: mean-R ranks 2, 1, 3 → ρ = 1 − 6·2/24 = 0.5)', () => {
    const m = scoreBandMonotonicity([
      { band: 'watchlist', trades: 30, meanR: 0.3, hitRate: 0.5 },
      { band: 'strong', trades: 30, meanR: 0.1, hitRate: 0.5 },
      { band: 'elite', trades: 30, meanR: 0.5, hitRate: 0.5 },
    ]);
    expect(m.verdict).toBe('mixed');
    expect(m.meanRRho).toBeCloseTo(0.5, 15);
    expect(m.hitRateRho).toBeNaN();
    expect(m.sentence).toStartWith('Mean R does not rise with every step up in score band (Spearman ρ = 0.50 across 3 bands');
    expect(m.sentence).toContain('the intervals overlap at every step, so those differences are not clearly real yet.');
    expect(scoreBandMonotonicity([bands[3]!, bands[2]!], { minTrades: 10 }).verdict).toBe('falling');
  });

  it('declines to judge with fewer than two bands over the floor', () => {
    const m = scoreBandMonotonicity(bands, { minTrades: 50 });
    expect(m.verdict).toBe('insufficient');
    expect(m.steps).toEqual([]);
    expect(m.meanRRho).toBeNaN();
    expect(m.sentence).toBe(
      'Too few trades to tell whether higher score bands do better: only watchlist (80) has at least 50 closed trades. ' +
        'Left out for fewer than 50 trades: ignore (12), strong (40), elite (25).',
    );
    expect(scoreBandMonotonicity([{ band: 'elite', trades: 0, meanR: NaN, hitRate: NaN }]).sentence).toStartWith('Too few trades to tell whether higher score bands do better: no band has');
  });

  it('rejects impossible bands and options', () => {
    expect(() => scoreBandMonotonicity([{ band: 'elite', trades: 5.5, meanR: 0, hitRate: 0 }])).toThrow(RangeError);
    expect(() => scoreBandMonotonicity([{ band: 'elite', trades: 5, meanR: 0, hitRate: 1.2 }])).toThrow(RangeError);
    expect(() => scoreBandMonotonicity([{ band: 'elite', trades: 5, meanR: NaN, hitRate: 0.2 }])).toThrow(RangeError);
    expect(() => scoreBandMonotonicity(bands, { minTrades: 0 })).toThrow(RangeError);
    expect(() => scoreBandMonotonicity(bands, { confidence: 1 })).toThrow(RangeError);
  });
});
