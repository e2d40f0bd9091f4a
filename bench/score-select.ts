/**
 * bench/score-select: chooses the form of the score model (kernels/scoring)
 * on the training years only, reproducibly, and (with `--write`) refits the
 * chosen form on all of them and writes kernels/score-table.
 *
 * Candidates: every feature set of bench/score-fit `FEATURE_SETS` (4) × rank
 * rule of kernels/scoring `RANK_RULES` (4) × band shares of `BAND_SHARES`
 * below (6) = 96. Each feature set is fitted once (bench/score-fit
 * `fitScoreModel`) on the trades detected to `--fit-to` (2012-12-31); each
 * candidate's rank knots come from those training trades; every candidate is
 * judged on the trades detected after `--fit-to` up to `--validate-to`
 * (2016-12-31). Trades detected after `--validate-to` are dropped as the file
 * is read: they play no part in the choice.
 *
 * The criterion, written down (and committed) before any candidate was judged:
 * 1. On the validation trades, for each neighbouring pair of bands (elite,
 *    strong), (strong, watchlist), (watchlist, ignore), the upper band's hit
 *    rate (ledger win) Wilson 95% interval lies wholly above the lower band's,
 *    and its mean R Student-t 95% interval wholly above the lower band's
 *    (six separations; a band with fewer than `MIN_BAND` validation trades
 *    separates from nothing). A candidate meeting all six passes.
 * 2. Among the passing candidates, the lowest validation Brier score of
 *    P(win) (the published `confidence`) for the ledger win; ties (candidates
 *    sharing a fit) go to the larger smallest gap between neighbouring hit
 *    intervals, then the earlier in the candidate order.
 * 3. If none passes: the most separations met, then the lowest Brier, then
 *    the larger smallest hit gap; the output says the criterion was not met.
 *
 *   bun run bench/score-select.ts --trades trades.json [--fit-to 2012-12-31] [--validate-to 2016-12-31] [--out select.json] [--write src/kernels/score-table.ts]
 *
 * `--trades` is bench/calibration's `--trades` file (the replayed trades).
 *
 * The gate of docs/research-protocol.md (rule 3, added by issue 32): the
 * chosen form may be judged on 2017–2024 only if its top band (`elite`) shows
 * a same-day lift whose 95% weekly cluster-bootstrap interval lies wholly
 * above zero on the validation trades (random entries of other members on the
 * same date, same ATR% quintile, same geometry; needs shared/data). `--write`
 * refits the chosen form on every trade detected to `--validate-to` and writes
 * the table only when it passes; judge it out of sample with
 * `bench/calibration.ts --reuse --trades trades.json`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SCORE_BANDS } from '../src/domain/signal';
import { brierReport } from '../src/kernels/stats';
import { finalScoreOf, RANK_RULES, scoreBand } from '../src/kernels/scoring';
import { groupFigures, type GroupFigures, type Trade } from './calibration';
import { recordFigures } from '../src/ledger/record-figures';
import { attachBaselines, csvSymbols, loadSeries } from './calibration-trades';
import { printTable, realCsvDir } from './lib';
import { FEATURE_SETS, fitScoreModel, fitScoreTable, predictions, rankKnots, scoreTableModule, type ScoreForm } from './score-fit';

/** The band-floor rules tried: the training shares of the rank below the watchlist, strong and elite floors. */
export const BAND_SHARES: readonly (readonly number[])[] = [
  [0.65, 0.9, 0.98],
  [0.6, 0.85, 0.97],
  [0.5, 0.8, 0.95],
  [0.5, 0.75, 0.9],
  [0.4, 0.7, 0.9],
  [0.75, 0.93, 0.99],
];

/** The fewest validation trades a band needs to count as separated from its neighbours. */
export const MIN_BAND = 100;

export interface Candidate {
  featureSet: string;
  form: ScoreForm;
  brier: number;
  /** Separations met (0–6) and the smallest gap between neighbouring hit intervals (negative: they overlap). */
  separations: number;
  minHitGap: number;
  bands: Record<string, GroupFigures>;
  /** The band it puts validation trade `i` in (for the same-day gate). */
  bandOf: (i: number) => string;
}

/** A candidate's separations on the validation trades (criterion 1). */
export function separations(bands: Readonly<Record<string, GroupFigures>>) {
  let met = 0;
  let minHitGap = Infinity;
  for (let k = 0; k + 1 < SCORE_BANDS.length; k++) {
    const hi = bands[SCORE_BANDS[k]!];
    const lo = bands[SCORE_BANDS[k + 1]!];
    const enough = hi !== undefined && lo !== undefined && hi.n >= MIN_BAND && lo.n >= MIN_BAND;
    const hitGap = enough ? hi.hitLower - lo.hitUpper : -Infinity;
    minHitGap = Math.min(minHitGap, hitGap);
    if (hitGap > 0) met++;
    if (enough && hi.rLower - lo.rUpper > 0) met++;
  }
  return { separations: met, minHitGap };
}

/** The criterion's order (2 and 3 of the module comment): best first. */
export const byCriterion = (a: Candidate, b: Candidate) => b.separations - a.separations || a.brier - b.brier || (b.minHitGap > a.minHitGap ? 1 : b.minHitGap < a.minHitGap ? -1 : 0);

/** Fits and judges every candidate on `trades` (fit: detected ≤ fitTo; validation: fitTo < detected ≤ validateTo); best first. */
export function selectScoreForm(trades: readonly Trade[], fitTo: string, validateTo: string): Candidate[] {
  const day = (t: Trade) => t.detectedAt.slice(0, 10);
  const train = trades.filter((t) => day(t) <= fitTo);
  const valid = trades.filter((t) => day(t) > fitTo && day(t) <= validateTo);
  if (train.length === 0 || valid.length === 0) throw new RangeError(`score-select: ${train.length} fitting and ${valid.length} validation trades; both must be non-empty`);
  const won = valid.map((t) => (t.outcome === 'win' ? 1 : 0));
  const base = train.filter((t) => t.outcome === 'win').length / train.length;
  const candidates: Candidate[] = [];
  for (const [featureSet, features] of Object.entries(FEATURE_SETS)) {
    const fit = fitScoreModel(train, features);
    if (!fit.converged) throw new Error(`score-select: the logistic fits of ${featureSet} did not converge`);
    const trainPreds = predictions(train, fit);
    const validPreds = predictions(valid, fit);
    const brier = brierReport(validPreds.map((p) => p.pWin), won, base).brier;
    for (const rank of RANK_RULES) {
      // The knots depend on the rank rule, not on the band shares.
      const ruleKnots = rankKnots(trainPreds, rank, BAND_SHARES[0]!);
      for (const bandShares of BAND_SHARES) {
        const knots = { ...ruleKnots, bandShares };
        const band = (i: number) => scoreBand(finalScoreOf(knots, validPreds[i]!.pWin, validPreds[i]!.expectedR).finalScore);
        const groups = Map.groupBy(valid, (_, i) => band(i));
        const bands = Object.fromEntries(SCORE_BANDS.filter((b) => groups.has(b)).map((b) => [b, groupFigures(groups.get(b)!)]));
        candidates.push({ featureSet, form: { features, rank, bandShares }, brier, ...separations(bands), bands, bandOf: band });
      }
    }
  }
  return candidates.sort(byCriterion);
}

/**
 * Rule 3 of docs/research-protocol.md: the chosen form's `elite` band on the
 * validation trades, beside same-day random entries; eligible for a judgement
 * on the test years only when the lift's interval lies wholly above zero.
 */
export async function sameDayGate(valid: Trade[], chosen: Pick<Candidate, 'bandOf'>): Promise<{ eligible: boolean; statement: string }> {
  const real = realCsvDir();
  if (!real) return { eligible: false, statement: 'same-day gate: shared/data is not here, so the chosen form cannot show a same-day lift: it may not be judged on the test years' };
  const elite = valid.filter((_, i) => chosen.bandOf(i) === 'elite');
  const universe = csvSymbols(real.dir);
  await attachBaselines(elite, { dir: real.dir, matches: 5, universe, series: await loadSeries(real.dir, universe) });
  const lift = recordFigures(elite).sameDay.lift;
  const eligible = (lift.lower ?? -Infinity) > 0;
  const pp = (x: number | null) => (x === null ? '—' : (100 * x).toFixed(1));
  return { eligible, statement: `same-day gate: the chosen form's elite band on the validation years (${elite.length} trades) lifts ${pp(lift.value)} pp [${pp(lift.lower)}, ${pp(lift.upper)}] over same-day random entries: ${eligible ? 'it may be judged on the test years' : 'not above zero, so it may not be judged on the test years; the incumbent stays'}` };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}`;
const cell = (f: GroupFigures | undefined) => (f ? `${f.n}: ${pct(f.hitRate)}% [${pct(f.hitLower)}, ${pct(f.hitUpper)}], ${f.avgR.toFixed(3)}R [${f.rLower.toFixed(3)}, ${f.rUpper.toFixed(3)}]` : '—');

if (import.meta.main) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      trades: { type: 'string' },
      'fit-to': { type: 'string', default: '2012-12-31' },
      'validate-to': { type: 'string', default: '2016-12-31' },
      out: { type: 'string', default: 'score-select.json' },
      write: { type: 'string' },
    },
  });
  if (!values.trades) {
    console.log('bench/score-select: --trades <file> (bench/calibration --trades) is needed; nothing to select');
    process.exit(0);
  }
  const validateTo = values['validate-to']!;
  const fitTo = values['fit-to']!;
  // Trades detected after the validation years are dropped here, before anything looks at them.
  const trades = (JSON.parse(readFileSync(values.trades, 'utf8')) as { trades: Trade[] }).trades.filter((t) => t.detectedAt.slice(0, 10) <= validateTo);
  const started = performance.now();
  const ranked = selectScoreForm(trades, fitTo, validateTo);
  const chosen = ranked[0]!;
  const passed = chosen.separations === 6;
  printTable(
    `Candidates fitted to ${fitTo}, judged on ${fitTo} < detected ≤ ${validateTo} (best first; ${ranked.length} in all, ${ranked.filter((c) => c.separations === 6).length} pass)`,
    ranked.map((c, i) => ({
      '#': i + 1,
      features: c.featureSet,
      rank: c.form.rank,
      shares: c.form.bandShares.join('/'),
      separations: c.separations,
      'min hit gap (pp)': (100 * c.minHitGap).toFixed(1),
      brier: c.brier.toFixed(4),
      ...Object.fromEntries(SCORE_BANDS.map((b) => [b, cell(c.bands[b])])),
    })),
  );
  console.log(`\nchosen: ${chosen.featureSet}, rank ${chosen.form.rank}, band shares ${chosen.form.bandShares.join('/')}: ${passed ? 'meets the criterion (all six separations)' : `the criterion is NOT met by any candidate (best: ${chosen.separations} of 6 separations)`}; ${((performance.now() - started) / 1000).toFixed(1)} s`);
  writeFileSync(values.out!, JSON.stringify({ fitTo, validateTo, passed, candidates: ranked.map(({ form, bandOf: _, ...c }) => ({ ...c, rank: form.rank, bandShares: form.bandShares })) }, null, 1));
  console.log(`written ${values.out}`);
  const gate = await sameDayGate(trades.filter((t) => t.detectedAt.slice(0, 10) > fitTo), chosen);
  console.log(gate.statement);
  if (values.write && !gate.eligible) console.log(`not written: ${values.write} (the chosen form may not be judged on the test years)`);
  if (values.write && gate.eligible) {
    const table = fitScoreTable(trades, chosen.form);
    writeFileSync(values.write, scoreTableModule(table, 'shared/data daily_yf_dieperdev, split-adjusted daily bars to 2024-03-08; S&P 500 members of each date (fja05680/sp500) that the data has; SPY (daily_marketlab) as benchmark'));
    console.log(`the chosen form refitted on the ${trades.length} trades detected to ${validateTo}; written ${values.write}`);
  }
}
