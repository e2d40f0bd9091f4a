/**
 * The fitted score table (src/kernels/score-table) is what the real history
 * gives: the replay of shared/data 2005–2017 (bench/calibration's trades; the
 * baseline draws left out), refitted on the trades detected to 2016-12-31
 * with bench/score-fit's `fitScoreModel`, reproduces the table's trade
 * count, outcome rates and win coefficients, and bench/score-select run on
 * the same trades (fit to 2012, judged on 2013–2016) chooses the table's
 * form. Trades detected late in 2016 that resolved after 2017-12-29 are
 * missing here (the bench replays to 2024), hence the tolerances.
 */
import { describe, expect, it } from 'bun:test';
import { gatherTrades } from '../../../bench/calibration';
import { fitScoreModel } from '../../../bench/score-fit';
import { selectScoreForm } from '../../../bench/score-select';
import { realCsvDir } from '../../../bench/lib';
import { SCORE_TABLE } from '../../../src/kernels/score-table';
import { SCORE_FEATURES } from '../../../src/kernels/scoring';

describe('the fitted score table', () => {
  it('refits from the replayed real history 2005–2016', async () => {
    const real = realCsvDir();
    if (!real) throw new Error('shared/data is needed (SHARED_DATA_DIR)');
    const { trades } = await gatherTrades({ dir: real.dir, from: '2005-01-01', to: '2017-12-29', matches: 0 });
    const train = trades.filter((t) => t.detectedAt.slice(0, 10) <= '2016-12-31');
    expect(train.length).toBeGreaterThan(0.99 * SCORE_TABLE.fittedOn.trades);
    expect(train.length).toBeLessThanOrEqual(SCORE_TABLE.fittedOn.trades);
    const fit = fitScoreModel(train);
    expect(fit.converged).toBe(true);
    expect(fit.fittedOn.winRate).toBeCloseTo(SCORE_TABLE.fittedOn.winRate, 2);
    expect(fit.fittedOn.lossRate).toBeCloseTo(SCORE_TABLE.fittedOn.lossRate, 2);
    expect(Math.abs(fit.win.intercept - SCORE_TABLE.win.intercept)).toBeLessThan(0.02);
    SCORE_FEATURES.forEach((c, j) => expect({ c, diff: Math.abs(fit.win.coefficients[j]! - SCORE_TABLE.win.coefficients[j]!) < 0.02 }).toEqual({ c, diff: true }));
    // The form: what the written criterion picks on the training years (no candidate meets all six separations there).
    const [chosen] = selectScoreForm(train, '2012-12-31', '2016-12-31');
    expect({ features: chosen!.form.features, rank: chosen!.form.rank, bandShares: chosen!.form.bandShares }).toEqual({ features: [...SCORE_TABLE.features], rank: SCORE_TABLE.rank, bandShares: [...SCORE_TABLE.bandShares] });
    expect(chosen!.separations).toBe(5);
  }, 600_000);
});
