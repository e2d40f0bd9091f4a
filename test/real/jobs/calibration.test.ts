/**
 * The fitted confidence table (src/kernels/confidence) is what the real
 * history gives: the replay of shared/data 2005–2017 (bench/calibration's
 * trades; the baseline draws left out), refitted on the trades detected to
 * 2016-12-31, reproduces the table's coefficients, trade count and base rate.
 * Trades detected late in 2016 that resolved after 2017-12-29 are missing
 * here (the bench replays to 2024), hence the tolerances.
 */
import { describe, expect, it } from 'bun:test';
import { features, gatherTrades } from '../../../bench/calibration';
import { realCsvDir } from '../../../bench/lib';
import { SCORE_COMPONENTS } from '../../../src/domain/signal';
import { CONFIDENCE_FIT } from '../../../src/kernels/confidence';
import { logisticFit } from '../../../src/kernels/stats';

describe('the fitted confidence table', () => {
  it('refits from the replayed real history 2005–2016', async () => {
    const real = realCsvDir();
    if (!real) throw new Error('shared/data is needed (SHARED_DATA_DIR)');
    const { trades } = await gatherTrades({ dir: real.dir, from: '2005-01-01', to: '2017-12-29', matches: 0 });
    const train = trades.filter((t) => t.detectedAt.slice(0, 10) <= '2016-12-31');
    expect(train.length).toBeGreaterThan(0.99 * CONFIDENCE_FIT.fittedOn.trades);
    expect(train.length).toBeLessThanOrEqual(CONFIDENCE_FIT.fittedOn.trades);
    const won = train.map((t) => (t.outcome === 'win' ? 1 : 0));
    expect(won.reduce((a: number, b) => a + b, 0) / train.length).toBeCloseTo(CONFIDENCE_FIT.fittedOn.baseRate, 2);
    const fit = logisticFit(train.map(features), won, { l2: 1 });
    expect(fit.converged).toBe(true);
    expect(Math.abs(fit.intercept - CONFIDENCE_FIT.intercept)).toBeLessThan(0.02);
    SCORE_COMPONENTS.forEach((c, j) => expect({ c, diff: Math.abs(fit.coefficients[j]! - CONFIDENCE_FIT.coefficients[c]) < 0.02 }).toEqual({ c, diff: true }));
    expect(Math.abs(fit.coefficients[SCORE_COMPONENTS.length]! - CONFIDENCE_FIT.short)).toBeLessThan(0.02);
  }, 300_000);
});
