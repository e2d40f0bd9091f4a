/**
 * bench/calibration: does a higher score mean a better signal, out of sample?
 *
 * 1. Replays the real daily history of shared/data (csv provider, SPY
 *    benchmark) point in time with the replay engine (jobs/replay), over the
 *    S&P 500 members of each date that the data has (fja05680/sp500), and
 *    keeps every entered trade the replay resolved (win, loss or scratch, as
 *    the ledger records it).
 * 2. Labels each trade by the ledger outcome (a lifecycle scratch is not a win)
 *    and by prices only: target1 before the stop (kernels/outcome without the
 *    lifecycle; `confidence`'s label).
 * 3. Builds both matched random baselines (jobs/baseline): for every trade,
 *    `--matches` random entries of the same calendar year and ATR% quintile,
 *    and as many on the same entry date in other members of that day's ATR%
 *    quintile, from symbols in the index that day, with the trade's
 *    direction, stop and target fractions, resolved by prices.
 * 4. Fits on the trades detected up to `--split` (default 2016-12-31):
 *    isotonic regression of the price label on finalScore, and logistic
 *    regression on the score model features (components, short, pattern type)
 *    (kernels/stats/calibration). Evaluates on the trades detected after the
 *    split only: Brier score and skill against the training base rate,
 *    reliability tables by decile, and the record tables (bench/calibration-record:
 *    by band, direction × band, pattern, market regime and year, the lift
 *    over both baselines, weekly cluster-bootstrap intervals).
 * 5. Prints the per-pattern base rates over the whole history (the README's
 *    table) and writes everything as JSON to `--out`; `--readme docs/calibration.md`
 *    writes the record tables into docs/calibration.md between its markers.

 * `--fit-score <path>` fits the score model on the trades detected to
 * `--split` (bench/score-fit) and writes kernels/score-table, nothing else;
 * other runs re-score the trades with the score in the code before judging.
 *
 *   bun run bench/calibration.ts [--from 2005-01-01] [--to 2024-03-08] [--split 2016-12-31] [--matches 5] [--out calibration.json]
 *   bun run bench/calibration.ts --trades trades.json                     # replay once, keep the trades
 *   bun run bench/calibration.ts --reuse --trades trades.json --fit-score src/kernels/score-table.ts
 *   bun run bench/calibration.ts --reuse --trades trades.json [--readme docs/calibration.md]   # judge the score in the code
 *
 * It reads only shared/data (or `--trades` with `--reuse`) and writes only `--out`, `--trades`, `--fit-score`, `--readme`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SCORE_BANDS } from '../src/domain/signal';
import { SCORE_FEATURES } from '../src/kernels/scoring';
import { SCORE_TABLE } from '../src/kernels/score-table';
import { bucketOf, quantileCuts } from '../src/kernels/baseline';
import {
  brierReport,
  differenceInterval,
  isotonicFit,
  isotonicPredict,
  logisticFit,
  logisticPredict,
  meanInterval,
  reliabilityTable,
  wilsonInterval,
  type IsotonicFit,
  type LogisticFit,
} from '../src/kernels/stats';
import { readmeBlocks, recordRows, recordTables, writeReadme } from './calibration-record';
import { attachBaselines, csvSymbols, gatherTrades, type Gathered, type Trade } from './calibration-trades';
import { printTable, realCsvDir } from './lib';
import { fitScoreTable, fix, rescore, scoreTableModule, tradeFeatures } from './score-fit';

export { gatherTrades, type Trade };

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '—');

/** A group's figures: ledger hit rate and R, price-only hit rate, the baseline beside it and the lift. */
export function groupFigures(trades: readonly Trade[]) {
  const n = trades.length;
  const wins = trades.filter((t) => t.outcome === 'win').length;
  const scratches = trades.filter((t) => t.outcome === 'scratch').length;
  const hit = wilsonInterval(wins, n);
  const r = n >= 2 ? meanInterval(trades.map((t) => t.r)) : null;
  const priced = trades.filter((t) => t.priceHit !== null);
  const priceHits = priced.filter((t) => t.priceHit === 1).length;
  const baseHits = trades.reduce((s, t) => s + t.baseHits, 0);
  const baseN = trades.reduce((s, t) => s + t.baseN, 0);
  const baseR = baseN ? trades.reduce((s, t) => s + t.baseSumR, 0) / baseN : NaN;
  const pricedR = priced.length ? priced.reduce((s, t) => s + t.priceR!, 0) / priced.length : NaN;
  const lift = priced.length && baseN ? differenceInterval(priceHits, priced.length, baseHits, baseN) : null;
  const days = trades.map((t) => t.daysHeld).sort((a, b) => a - b);
  return {
    n,
    hitRate: fix(hit.estimate),
    hitLower: fix(hit.lower),
    hitUpper: fix(hit.upper),
    scratchShare: fix(n ? scratches / n : NaN),
    avgR: fix(r?.mean ?? NaN),
    rLower: fix(r?.lower ?? NaN),
    rUpper: fix(r?.upper ?? NaN),
    medianDaysHeld: n ? days[Math.floor((n - 1) / 2)]! : NaN,
    priceN: priced.length,
    priceHitRate: fix(priced.length ? priceHits / priced.length : NaN),
    priceAvgR: fix(pricedR),
    baselineN: baseN,
    baselineHitRate: fix(baseN ? baseHits / baseN : NaN),
    baselineAvgR: fix(baseR),
    lift: fix(lift?.difference ?? NaN),
    liftLower: fix(lift?.lower ?? NaN),
    liftUpper: fix(lift?.upper ?? NaN),
  };
}

export type GroupFigures = ReturnType<typeof groupFigures>;

/** Steps 4–5: the fits on the training trades and the out-of-sample judgement. */
export function evaluate(trades: readonly Trade[], split: string) {
  const labelled = trades.filter((t) => t.priceHit !== null);
  const train = labelled.filter((t) => t.detectedAt.slice(0, 10) <= split);
  const test = labelled.filter((t) => t.detectedAt.slice(0, 10) > split);
  if (train.length === 0 || test.length === 0) throw new RangeError(`calibration: ${train.length} training and ${test.length} test trades; both must be non-empty`);
  const y = (ts: readonly Trade[]) => ts.map((t) => t.priceHit!);
  const won = (ts: readonly Trade[]) => ts.map((t) => (t.outcome === 'win' ? 1 : 0));
  // Isotonic over deciles of the training scores (each step holds ≥ a tenth of the trades: no 0% or 100% tails from a handful).
  const scoreCuts = quantileCuts(
    train.map((t) => t.finalScore),
    [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
  );
  const binOf = (score: number) => {
    const b = bucketOf(score, scoreCuts);
    return b === 0 ? -Infinity : scoreCuts[b - 1]!;
  };
  const isotonic: IsotonicFit = isotonicFit(
    train.map((t) => Math.max(-1, binOf(t.finalScore))),
    y(train),
  );
  const logistic: LogisticFit = logisticFit(train.map((t) => tradeFeatures(t)), y(train), { l2: 1 });
  const trainBase = y(train).reduce((a: number, b) => a + b, 0) / train.length;
  // The ledger label (a win as the ledger records it: target1 before the stop while the lifecycle holds), over every entered trade.
  const ledgerTrain = trades.filter((t) => t.detectedAt.slice(0, 10) <= split);
  const ledgerTest = trades.filter((t) => t.detectedAt.slice(0, 10) > split);
  const ledgerLogistic = logisticFit(ledgerTrain.map((t) => tradeFeatures(t)), won(ledgerTrain), { l2: 1 });
  const ledgerIsotonic = isotonicFit(
    ledgerTrain.map((t) => Math.max(-1, binOf(t.finalScore))),
    won(ledgerTrain),
  );
  const ledgerBase = won(ledgerTrain).reduce((a: number, b) => a + b, 0) / ledgerTrain.length;
  const ledgerPredictions = {
    confidence: ledgerTest.map((t) => t.confidence),
    isotonicScore: ledgerTest.map((t) => isotonicPredict(ledgerIsotonic, t.finalScore)),
    logisticComponents: ledgerTest.map((t) => logisticPredict(ledgerLogistic, tradeFeatures(t))),
  };
  const ledgerLabel = {
    trainTrades: ledgerTrain.length,
    testTrades: ledgerTest.length,
    trainBaseRate: fix(ledgerBase, 4),
    logistic: { intercept: ledgerLogistic.intercept, coefficients: Object.fromEntries(SCORE_FEATURES.map((c, j) => [c, ledgerLogistic.coefficients[j]!])), converged: ledgerLogistic.converged },
    isotonic: { x: ledgerIsotonic.x, y: ledgerIsotonic.y.map((v) => fix(v, 4)) },
    brier: Object.fromEntries(Object.entries(ledgerPredictions).map(([k, p]) => [k, brierReport(p, won(ledgerTest), ledgerBase)])),
    reliability: Object.fromEntries(Object.entries(ledgerPredictions).map(([k, p]) => [k, reliabilityTable(p, won(ledgerTest), 10)])),
  };
  const predictions = {
    confidence: test.map((t) => t.confidence),
    isotonicScore: test.map((t) => isotonicPredict(isotonic, t.finalScore)),
    logisticComponents: test.map((t) => logisticPredict(logistic, tradeFeatures(t))),
  };
  const brier = Object.fromEntries(Object.entries(predictions).map(([k, p]) => [k, brierReport(p, y(test), trainBase)]));
  const reliability = Object.fromEntries(Object.entries(predictions).map(([k, p]) => [k, reliabilityTable(p, y(test), 10)]));
  const outOfSample = trades.filter((t) => t.detectedAt.slice(0, 10) > split);
  const inSample = trades.filter((t) => t.detectedAt.slice(0, 10) <= split);
  const table = (ts: readonly Trade[], key: (t: Trade) => string, order?: readonly string[]) => {
    const groups = Map.groupBy(ts, key);
    const keys = order ? order.filter((k) => groups.has(k)) : [...groups.keys()].sort();
    return Object.fromEntries(keys.map((k) => [k, groupFigures(groups.get(k)!)]));
  };
  return {
    split,
    trainTrades: train.length,
    testTrades: test.length,
    trainBaseRate: fix(trainBase, 4),
    isotonic: { x: isotonic.x, y: isotonic.y.map((v) => fix(v, 4)) },
    logistic: { intercept: fix(logistic.intercept, 4), coefficients: Object.fromEntries(SCORE_FEATURES.map((c, j) => [c, fix(logistic.coefficients[j]!, 4)])), converged: logistic.converged },
    brier,
    reliability,
    ledgerLabel,
    all: { inSample: groupFigures(inSample), outOfSample: groupFigures(outOfSample) },
    bands: { inSample: table(inSample, (t) => t.band, SCORE_BANDS), outOfSample: table(outOfSample, (t) => t.band, SCORE_BANDS) },
    bandsByDirection: table(outOfSample, (t) => `${t.direction} ${t.band}`),
    directions: { inSample: table(inSample, (t) => t.direction), outOfSample: table(outOfSample, (t) => t.direction) },
    patterns: { outOfSample: table(outOfSample, (t) => t.patternType) },
    patternBaseRates: table(trades, (t) => t.patternType),
  };
}

function print(report: ReturnType<typeof evaluate>): void {
  const rows = (o: Record<string, GroupFigures>) =>
    Object.entries(o).map(([k, f]) => ({
      group: k,
      N: f.n,
      'hit (ledger)': `${pct(f.hitRate)} [${pct(f.hitLower)}, ${pct(f.hitUpper)}]`,
      'avg R [t 95%]': `${f.avgR.toFixed(3)} [${f.rLower.toFixed(3)}, ${f.rUpper.toFixed(3)}]`,
      scratch: pct(f.scratchShare),
      'hit (prices)': pct(f.priceHitRate),
      'R (prices)': f.priceAvgR.toFixed(3),
      'baseline hit': `${pct(f.baselineHitRate)} (${f.baselineN})`,
      'baseline R': f.baselineAvgR.toFixed(3),
      'lift [95%]': `${(100 * f.lift).toFixed(1)} pp [${(100 * f.liftLower).toFixed(1)}, ${(100 * f.liftUpper).toFixed(1)}]`,
    }));
  printTable(`Score bands, in sample (detected ≤ ${report.split}; Wilson and t intervals, as bench/score-select's criterion reads them)`, rows(report.bands.inSample));
  printTable(
    `Brier score out of sample (${report.testTrades} trades; reference: the training base rate ${pct(report.trainBaseRate)} for all)`,
    Object.entries(report.brier).map(([k, b]) => ({ predictor: k, brier: b.brier.toFixed(4), reference: b.reference.toFixed(4), skill: b.skill.toFixed(4) })),
  );
  for (const [k, bins] of Object.entries(report.reliability)) {
    printTable(
      `Reliability out of sample: ${k}`,
      bins.map((b, i) => ({ decile: i + 1, range: `${b.from.toFixed(3)}–${b.to.toFixed(3)}`, N: b.n, predicted: pct(b.predicted), observed: pct(b.observed), 'Wilson 95%': `[${pct(b.lower)}, ${pct(b.upper)}]` })),
    );
  }
  printTable(
    'Per-pattern base rates, whole history (ledger outcomes of entered trades)',
    Object.entries(report.patternBaseRates).map(([k, f]) => ({ pattern: k, N: f.n, 'hit rate': pct(f.hitRate), 'avg R': f.avgR.toFixed(3), 'median days held': f.medianDaysHeld, 'hit (prices)': pct(f.priceHitRate), 'baseline hit': pct(f.baselineHitRate) })),
  );
  printTable(
    `Ledger label (win as the ledger records it): Brier out of sample (${report.ledgerLabel.testTrades} trades; reference: the training base rate ${pct(report.ledgerLabel.trainBaseRate)})`,
    Object.entries(report.ledgerLabel.brier).map(([k, b]) => ({ predictor: k, brier: b.brier.toFixed(4), reference: b.reference.toFixed(4), skill: b.skill.toFixed(4) })),
  );
  for (const [k, bins] of Object.entries(report.ledgerLabel.reliability)) {
    printTable(
      `Ledger label reliability out of sample: ${k}`,
      bins.map((b, i) => ({ decile: i + 1, range: `${b.from.toFixed(3)}–${b.to.toFixed(3)}`, N: b.n, predicted: pct(b.predicted), observed: pct(b.observed), 'Wilson 95%': `[${pct(b.lower)}, ${pct(b.upper)}]` })),
    );
  }
  console.log('\nledger-label logistic fit (training years):', JSON.stringify(report.ledgerLabel.logistic));
  console.log('\nlogistic fit (training years):', JSON.stringify(report.logistic));
  console.log('isotonic fit of finalScore (training years):', JSON.stringify(report.isotonic));
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      from: { type: 'string', default: '2005-01-01' },
      to: { type: 'string', default: '2024-03-08' },
      split: { type: 'string', default: '2016-12-31' },
      matches: { type: 'string', default: '5' },
      out: { type: 'string', default: 'calibration.json' },
      smoke: { type: 'boolean', default: false },
      /** Write the gathered trades here (JSON), or with --reuse read them instead of replaying. */
      trades: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      /** Write the record tables into this README between its markers (bench/calibration-record). */
      readme: { type: 'string' },
      /** Fit the score model on the trades detected to --split and write kernels/score-table to this path (then run again to judge it). */
      'fit-score': { type: 'string' },
    },
  });
  const real = realCsvDir();
  if (!real) {
    console.log('bench/calibration: shared/data is not here; nothing to measure');
    process.exit(0);
  }
  const from = values.smoke ? '2021-01-01' : values.from!;
  const split = values.smoke ? '2022-06-30' : values.split!;
  const reuse = Boolean(values.reuse && values.trades);
  const gathered: Gathered = reuse
    ? JSON.parse(readFileSync(values.trades!, 'utf8'))
    : await gatherTrades({ dir: real.dir, from, to: values.to!, matches: Number(values.matches), onProgress: (line) => process.stderr.write(`\r${line}   `) });
  process.stderr.write('\n');
  // Stored trades get their labels and baselines from the code now (a trades file keeps the replay, not the draws).
  if (reuse) await attachBaselines(gathered.trades, { dir: real.dir, matches: Number(values.matches), universe: csvSymbols(real.dir) });
  if (values.trades && !values.reuse) writeFileSync(values.trades, JSON.stringify(gathered));
  console.log(`replay ${from} .. ${values.to}: ${gathered.sessions} sessions × ${gathered.symbols} symbols in ${(gathered.replayMs / 1000).toFixed(1)} s; ${gathered.trades.length} entered trades`);
  console.log('universe:', JSON.stringify(gathered.universe));
  if (values['fit-score']) {
    const train = gathered.trades.filter((t) => t.detectedAt.slice(0, 10) <= split);
    // The form of the table in the code now (its features, rank rule and band shares); a refit from the same trades writes the same table.
    const table = fitScoreTable(train, SCORE_TABLE);
    writeFileSync(values['fit-score'], scoreTableModule(table, 'shared/data daily_yf_dieperdev, split-adjusted daily bars to 2024-03-08; S&P 500 members of each date (fja05680/sp500) that the data has; SPY (daily_marketlab) as benchmark'));
    console.log(`score model fitted on ${train.length} trades detected to ${split}; written ${values['fit-score']}`);
    process.exit(0);
  }
  // The score in the code now (the stored trades may carry an older one).
  rescore(gathered.trades);
  const report = evaluate(gathered.trades, split);
  print(report);
  // The record tables: both baselines, weekly cluster-bootstrap intervals (bench/calibration-record).
  const record = recordTables(gathered.trades, split);
  const cluster = '95% weekly cluster bootstrap';
  printTable(`Score bands, out of sample (detected > ${split}; ${cluster})`, recordRows({ ...record.bands, all: record.all }));
  printTable(`Direction × band, out of sample (${cluster})`, recordRows(record.directionBands));
  printTable(`Direction, out of sample (${cluster})`, recordRows(record.directions));
  printTable(`Pattern, out of sample (${cluster})`, recordRows(record.patterns));
  printTable(`Market regime when surfaced, out of sample (${cluster})`, recordRows(record.regimes));
  printTable(`Year of detection, every trade (${cluster}; years ≤ ${split} are in sample)`, recordRows(record.years));
  if (values.readme) {
    const brier = report.ledgerLabel.brier.confidence!;
    const confidence = { ...brier, baseRate: report.ledgerLabel.trainBaseRate, testTrades: report.ledgerLabel.testTrades, reliability: report.ledgerLabel.reliability.confidence! };
    writeReadme(values.readme, readmeBlocks(record, { from, to: values.to!, trades: gathered.trades, confidence }));
    console.log(`\nwritten the record tables into ${values.readme}`);
  }
  writeFileSync(values.out!, JSON.stringify({ from, to: values.to, universe: gathered.universe, ...report, record }, null, 1));
  console.log(`\nwritten ${values.out}`);
}
