/**
 * bench/score-fit: fitting the score model of kernels/scoring on replayed
 * trades (bench/calibration gathers them) and writing the fitted table as the
 * module kernels/score-table (`bench/calibration.ts --fit-score <file>`), and
 * re-scoring stored trades with the model in the code now.
 */
import type { Trade } from './calibration-trades';
import { quantileCuts } from '../src/kernels/baseline';
import { logisticFit, ridgeFit } from '../src/kernels/stats';
import { cdfAt, expectedOutcome, FEATURE_NAMES, SCORE_FEATURES, scoreBand, scoreFeatures, scoreModel, rankOf, type RankRule } from '../src/kernels/scoring';
import { PATTERN_TYPES, SCORE_COMPONENTS, type PatternType } from '../src/domain/signal';

/** A number rounded to `d` decimals for a report or the table (NaN when not finite). */
export const fix = (x: number, d = 3) => (Number.isFinite(x) ? Number(x.toFixed(d)) : NaN);

/** The score model's features of a trade (kernels/scoring `scoreFeatures`; default: the fitted table's). */
export const tradeFeatures = (t: Pick<Trade, 'components' | 'direction' | 'patternType'>, names: readonly string[] = SCORE_FEATURES) => scoreFeatures(t.components, t.direction, t.patternType as PatternType, names);

const PATTERNS = PATTERN_TYPES.slice(1).map((p) => `pattern:${p}`);

/** The feature sets the model selection tries (bench/score-select), by name; each a subset of kernels/scoring FEATURE_NAMES. */
export const FEATURE_SETS: Readonly<Record<string, readonly string[]>> = {
  'components+short+pattern': [...SCORE_COMPONENTS, 'short', ...PATTERNS],
  'components+short+pattern+short×components': FEATURE_NAMES,
  'short+pattern': ['short', ...PATTERNS],
  'components+short': [...SCORE_COMPONENTS, 'short'],
};

/** `k` + 1 percentile knots (0th .. 100th by the nearest-rank rule) of `values`. */
const knots = (values: readonly number[], k = 100) => quantileCuts(values, Array.from({ length: k + 1 }, (_, i) => i / k)).map((v) => fix(v, 6));

/**
 * Fits the score model of kernels/scoring on `train` (entered trades, ledger
 * outcomes): the logistic fits of a win and a loss, the ridge fit of R over the
 * scratches, the mean R of wins and losses by pattern and direction (cells of
 * ≥ 20; else the overall mean), and the percentile knots of E[R], P(win) and
 * their rank u over the training trades.
 */
export function fitScoreModel(train: readonly Trade[], features: readonly string[] = SCORE_FEATURES) {
  if (train.length === 0) throw new RangeError('fitScoreModel: no training trades');
  const x = train.map((t) => tradeFeatures(t, features));
  const win = logisticFit(x, train.map((t) => (t.outcome === 'win' ? 1 : 0)), { l2: 1 });
  const loss = logisticFit(x, train.map((t) => (t.outcome === 'loss' ? 1 : 0)), { l2: 1 });
  const scratchIdx = train.flatMap((t, i) => (t.outcome === 'scratch' ? [i] : []));
  const scratchR = ridgeFit(scratchIdx.map((i) => x[i]!), scratchIdx.map((i) => train[i]!.r), { l2: 1 });
  const cellMeans = (outcome: string) => {
    const all = train.filter((t) => t.outcome === outcome);
    const overall = all.reduce((s, t) => s + t.r, 0) / all.length;
    const cells: Record<string, number> = {};
    for (const [key, ts] of Map.groupBy(all, (t) => `${t.patternType} ${t.direction}`)) if (ts.length >= 20) cells[key] = fix(ts.reduce((s, t) => s + t.r, 0) / ts.length, 4);
    return { cells, overall: fix(overall, 4) };
  };
  const winR = cellMeans('win');
  const lossR = cellMeans('loss');
  const round = (f: { intercept: number; coefficients: number[] }) => ({ intercept: fix(f.intercept, 6), coefficients: f.coefficients.map((c) => fix(c, 6)) });
  const partial = {
    features: [...features],
    win: round(win),
    loss: round(loss),
    scratchR: round(scratchR),
    winR: winR.cells,
    winRAll: winR.overall,
    lossR: lossR.cells,
    lossRAll: lossR.overall,
  };
  const days = train.map((t) => t.detectedAt.slice(0, 10)).sort();
  const share = (o: string) => fix(train.filter((t) => t.outcome === o).length / train.length, 4);
  return {
    fittedOn: { from: days[0]!, to: days[days.length - 1]!, trades: train.length, winRate: share('win'), lossRate: share('loss'), scratchRate: share('scratch') },
    converged: win.converged && loss.converged,
    ...partial,
  };
}

/** P(win), P(loss) and E[R] of each trade under a fitted model. */
export const predictions = (trades: readonly Trade[], model: Parameters<typeof expectedOutcome>[0]) => trades.map((t) => expectedOutcome(model, t.components, t.direction, t.patternType as PatternType));

/**
 * The percentile knots the score model ranks by, from the training trades'
 * predictions under the fitted parts (`fitScoreModel`), for the rank rule
 * `rank`, with the band floors at the training shares `bandShares`.
 */
export function rankKnots(preds: readonly { pWin: number; expectedR: number }[], rank: RankRule, bandShares: readonly number[]) {
  const expectedRKnots = knots(preds.map((p) => p.expectedR));
  const winKnots = knots(preds.map((p) => p.pWin));
  const u = preds.map((p) => rankOf(rank, cdfAt(expectedRKnots, p.expectedR), cdfAt(winKnots, p.pWin)));
  return { expectedRKnots, winKnots, rankKnots: knots(u), rank, bandShares: [...bandShares] };
}

/** A score model's form: the features it reads, its rank rule and the training shares of its band floors. */
export interface ScoreForm {
  features: readonly string[];
  rank: RankRule;
  bandShares: readonly number[];
}

/** The whole fitted table (kernels/score-table) of the form `form` on the training trades `train`. */
export function fitScoreTable(train: readonly Trade[], form: ScoreForm) {
  const fit = fitScoreModel(train, form.features);
  return { ...fit, ...rankKnots(predictions(train, fit), form.rank, form.bandShares) };
}

/** JSON with each array of numbers on lines of at most 12 values (the fitted table stays a short, readable file). */
function tableLiteral(value: unknown, indent = ''): string {
  if (Array.isArray(value) && value.every((v) => typeof v === 'number')) {
    const rows: string[] = [];
    for (let i = 0; i < value.length; i += 12) rows.push(value.slice(i, i + 12).join(', '));
    return rows.length <= 1 ? `[${rows[0] ?? ''}]` : `[\n${rows.map((r) => `${indent} ${r}`).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value).map(([k, v]) => `${indent} ${JSON.stringify(k)}: ${tableLiteral(v, `${indent} `)}`);
    return `{\n${entries.join(',\n')}\n${indent}}`;
  }
  if (Array.isArray(value)) return `[\n${value.map((v) => `${indent} ${tableLiteral(v, `${indent} `)}`).join(',\n')}\n${indent}]`;
  return JSON.stringify(value);
}

/** The TypeScript module kernels/score-table for a fitted model (written by `--fit-score`). */
export function scoreTableModule(fit: ReturnType<typeof fitScoreModel> & ReturnType<typeof rankKnots>, data: string): string {
  const { converged, ...table } = fit;
  if (!converged) throw new Error('fitScoreModel: a logistic fit did not converge');
  return `/**
 * @module kernels/score-table
 * The fitted table of the score model (kernels/scoring documents the model).
 * Written by \`bun run bench/calibration.ts --reuse --trades <file> --fit-score
 * src/kernels/score-table.ts\`; do not edit by hand. The form (features, rank
 * rule, band shares) is the table's own \`features\`, \`rank\` and \`bandShares\`; a refit
 * keeps it (docs/calibration.md says how it was chosen).
 *
 * Fitted on the ${table.fittedOn.trades} entered trades detected ${table.fittedOn.from} .. ${table.fittedOn.to}
 * of the replayed real history (${data}); wins ${(100 * table.fittedOn.winRate).toFixed(1)}%,
 * losses ${(100 * table.fittedOn.lossRate).toFixed(1)}%, scratches ${(100 * table.fittedOn.scratchRate).toFixed(1)}%. Method: logistic regressions (Newton–Raphson,
 * ridge λ = 1 on the slopes) of a win and of a loss, a ridge regression (λ = 1) of R over
 * the scratched trades, on the features ${table.features.join(', ')};
 * the training mean R of wins and losses by pattern and direction (cells of ≥ 20 trades);
 * the 101 percentile knots of E[R], P(win) and their rank (rule \`${table.rank}\`) over the
 * training trades; the band floors 55, 70, 85 at the training shares ${table.bandShares.join(', ')} of the rank.
 * Nothing detected after ${table.fittedOn.to} was used (docs/calibration.md).
 */
export const SCORE_TABLE = ${tableLiteral(table)} as const;
`;
}

/** Re-scores trades with the score model in the code now (the components are stored; a trade's outcome does not depend on its score). */
export function rescore(trades: Trade[]): void {
  for (const t of trades) {
    const m = scoreModel(t.components, t.direction, t.patternType as PatternType);
    t.finalScore = m.finalScore;
    t.band = scoreBand(m.finalScore);
    t.confidence = Math.round(100 * m.pWin) / 100;
  }
}

