/**
 * The fitted score table (src/kernels/score-table) is what the real history
 * gives: the replay of shared/data 2005–2017 (bench/calibration's trades; the
 * baseline draws left out), refitted on the trades detected to 2016-12-31
 * in the table's own form (the incumbent: components+short+pattern, rank = the
 * lower of the two percentiles, floors at the training 65th/90th/98th) with
 * bench/score-fit's `fitScoreTable`, reproduces the table's trade count,
 * outcome rates, win coefficients and rank knots. bench/score-select run on
 * the same trades (fit to 2012, judged on 2013–2016) picks another form
 * (ranked by E[R] alone, floors at the 50th/75th/90th; 5 of 6 separations),
 * the incumbent meeting 4; that form did worse on 2017–2024 and was not
 * adopted (docs/calibration.md); by the research protocol's same-day gate
 * it would not have been judged there at all. Trades detected late in 2016 that resolved
 * after 2017-12-29 are missing here (the bench replays to 2024), and issue 32's
 * gap_and_go fix added trades the table was not fitted on, hence the
 * tolerances.
 */
import { describe, expect, it } from 'bun:test';
import { gatherTrades } from '../../../bench/calibration';
import { FEATURE_SETS, fitScoreTable } from '../../../bench/score-fit';
import { sameDayGate, selectScoreForm } from '../../../bench/score-select';
import { realCsvDir } from '../../../bench/lib';
import { SCORE_TABLE } from '../../../src/kernels/score-table';
import { SCORE_FEATURES } from '../../../src/kernels/scoring';

const INCUMBENT = { features: FEATURE_SETS['components+short+pattern']!, rank: 'min', bandShares: [0.65, 0.9, 0.98] };
const formOf = (f: { features: readonly string[]; rank: string; bandShares: readonly number[] }) => ({ features: [...f.features], rank: f.rank, bandShares: [...f.bandShares] });

describe('the fitted score table', () => {
  it('refits from the replayed real history 2005–2016', async () => {
    const real = realCsvDir();
    if (!real) throw new Error('shared/data is needed (SHARED_DATA_DIR)');
    const { trades } = await gatherTrades({ dir: real.dir, from: '2005-01-01', to: '2017-12-29', matches: 0 });
    const train = trades.filter((t) => t.detectedAt.slice(0, 10) <= '2016-12-31');
    // The table was fitted before issue 32's gap_and_go fix, which adds about 340 trades to 2005–2016
    // (204,442 against the table's 204,098 in bench/calibration's replay); the refit stays within the same bounds.
    expect(train.length).toBeGreaterThan(0.99 * SCORE_TABLE.fittedOn.trades);
    expect(train.length).toBeLessThan(1.01 * SCORE_TABLE.fittedOn.trades);
    // The committed table is the incumbent form.
    expect(formOf(SCORE_TABLE)).toEqual(formOf(INCUMBENT));
    const fit = fitScoreTable(train, SCORE_TABLE);
    expect(fit.converged).toBe(true);
    expect(fit.fittedOn.winRate).toBeCloseTo(SCORE_TABLE.fittedOn.winRate, 2);
    expect(fit.fittedOn.lossRate).toBeCloseTo(SCORE_TABLE.fittedOn.lossRate, 2);
    expect(Math.abs(fit.win.intercept - SCORE_TABLE.win.intercept)).toBeLessThan(0.02);
    SCORE_FEATURES.forEach((c, j) => expect({ c, diff: Math.abs(fit.win.coefficients[j]! - SCORE_TABLE.win.coefficients[j]!) < 0.02 }).toEqual({ c, diff: true }));
    expect(fit.rankKnots.length).toBe(SCORE_TABLE.rankKnots.length);
    fit.rankKnots.forEach((k, i) => expect({ i, diff: Math.abs(k - SCORE_TABLE.rankKnots[i]!) < 0.01 }).toEqual({ i, diff: true }));
    // The selection's written criterion on the training years (no candidate meets all six separations there)
    // picks the E[R]-alone form, not the committed one; the incumbent meets 4.
    const ranked = selectScoreForm(train, '2012-12-31', '2016-12-31');
    expect(ranked.length).toBe(96);
    const [chosen] = ranked;
    expect(chosen!.featureSet).toBe('components+short+pattern');
    expect(formOf(chosen!.form)).toEqual({ features: [...FEATURE_SETS['components+short+pattern']!], rank: 'expectedR', bandShares: [0.5, 0.75, 0.9] });
    expect(chosen!.separations).toBe(5);
    const incumbent = ranked.find((c) => JSON.stringify(formOf(c.form)) === JSON.stringify(formOf(INCUMBENT)));
    expect(incumbent?.separations).toBe(4);
    // The research protocol's gate (rule 3): the chosen form's elite band shows no same-day lift above zero on
    // 2013–2016 (+1.5 pp [−1.8, +4.5] in bench/score-select's run), so it may not be judged on 2017–2024.
    const gate = await sameDayGate(
      train.filter((t) => t.detectedAt.slice(0, 10) > '2012-12-31'),
      chosen!,
    );
    expect(gate.eligible).toBe(false);
    expect(gate.statement).toContain('may not be judged on the test years');
  }, 1_200_000); // the whole real suite took 286 s on a quiet machine; 669 s at load 13–15 (a CPU-bound replay of 12 years): a hang guard, not a speed bound
});
