/**
 * bench/score-select's criterion and selection on made-up trades whose answer
 * is known: the hit chance and R rise with breakout volume alone, so a form
 * that reads the components separates every band, and a trade detected after
 * the validation years changes nothing. The real selection is
 * `bun run bench/score-select.ts --trades <file>` (docs/calibration.md).
 */
import { describe, expect, it } from 'bun:test';
import type { GroupFigures, Trade } from '../../bench/calibration';
import { BAND_SHARES, byCriterion, MIN_BAND, selectScoreForm, separations } from '../../bench/score-select';
import { FEATURE_SETS } from '../../bench/score-fit';
import { SCORE_BANDS } from '../../src/domain/signal';
import { seededRandom } from '../../src/kernels/random';
import { RANK_RULES } from '../../src/kernels/scoring';

/** `n` long trades detected in `year`: P(win) = 0.05 + 0.8·breakoutVolume, a win +1.5R, a loss −1R, a scratch −0.3R + 0.6R·breakoutVolume. */
function trades(n: number, year: number, seed: number, flip = false): Trade[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => {
    const components = Array.from({ length: 7 }, () => random());
    const v = flip ? 1 - components[1]! : components[1]!;
    const p = 0.05 + 0.8 * v;
    const u = random();
    const outcome = u < p ? 'win' : u < p + 0.05 ? 'loss' : 'scratch';
    const day = String(1 + (i % 28)).padStart(2, '0');
    return {
      id: `${year}-${i}`,
      symbol: 'X',
      patternType: random() < 0.5 ? 'flat_base' : 'range_breakout',
      direction: 'long',
      band: 'ignore',
      finalScore: 0,
      confidence: 0,
      components,
      detectedAt: `${year}-03-${day}T20:00:00.000Z`,
      surfacedAt: `${year}-03-${day}T20:00:00.000Z`,
      surfacedState: 'triggered',
      regime: 'risk_on',
      alert: { verdict: 'not_eligible', codes: [] },
      trigger: 100,
      patternEnd: `${year}-03-${day}T20:00:00.000Z`,
      depthPct: 10,
      entryAt: `${year}-03-${day}T20:00:00.000Z`,
      entry: 100,
      stopLoss: 95,
      target1: 107.5,
      outcome,
      r: outcome === 'win' ? 1.5 : outcome === 'loss' ? -1 : -0.3 + 0.6 * v,
      daysHeld: 5,
      exitAt: `${year}-04-${day}T20:00:00.000Z`,
      priceHit: outcome === 'win' ? 1 : 0,
      priceR: null,
      baseHits: 0,
      baseN: 0,
      baseSumR: 0,
      sameHits: 0,
      sameN: 0,
      sameSumR: 0,
    } satisfies Trade;
  });
}

const figures = (n: number, hit: [number, number], r: [number, number]) => ({ n, hitLower: hit[0], hitUpper: hit[1], rLower: r[0], rUpper: r[1] }) as GroupFigures;

describe('bench/score-select', () => {
  it('counts the separations of neighbouring bands, hit and R apart', () => {
    const bands = {
      elite: figures(500, [0.4, 0.5], [0.2, 0.3]),
      strong: figures(800, [0.3, 0.38], [0.1, 0.25]), // hit apart from elite (gap 2 pp), R overlapping
      watchlist: figures(900, [0.25, 0.31], [0, 0.05]), // hit overlapping strong, R apart
      ignore: figures(MIN_BAND - 1, [0.1, 0.2], [-0.5, -0.4]), // too few to count
    };
    const s = separations(bands);
    expect(s.separations).toBe(2);
    expect(s.minHitGap).toBe(-Infinity);
    expect(separations({ ...bands, ignore: figures(MIN_BAND, [0.1, 0.2], [-0.5, -0.4]) })).toEqual({ separations: 4, minHitGap: 0.3 - 0.31 });
  });

  it('chooses a form that separates every band when the data allow it, by the written order, blind to later years', () => {
    // The trades after the validation years carry the reversed relation: were they read, no form would separate the bands.
    const history = [...trades(4_000, 2010, 1), ...trades(6_000, 2014, 2), ...trades(10_000, 2020, 3, true)];
    const ranked = selectScoreForm(history, '2012-12-31', '2016-12-31');
    expect(ranked.length).toBe(Object.keys(FEATURE_SETS).length * RANK_RULES.length * BAND_SHARES.length);
    for (let k = 1; k < ranked.length; k++) expect(byCriterion(ranked[k - 1]!, ranked[k]!)).toBeLessThanOrEqual(0);
    for (const c of ranked) expect(Object.values(c.bands).reduce((s, f) => s + f.n, 0)).toBe(6_000);
    const best = ranked[0]!;
    expect(best.separations).toBe(6);
    const hits = SCORE_BANDS.map((b) => best.bands[b]!.hitRate);
    expect(hits).toEqual([...hits].sort((a, b) => b - a));
    // A form without the components cannot tell the trades apart: it never meets all six.
    const blind = ranked.filter((c) => c.featureSet === 'short+pattern');
    expect(blind.length).toBeGreaterThan(0);
    for (const c of blind) expect(c.separations).toBeLessThan(6);
  });
});
