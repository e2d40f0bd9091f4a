/**
 * @module kernels/stats
 * The statistics the monthly rollups and the scorecard compute from the
 * ledger, one small unit a file under `stats/`, each citing its formula:
 *
 * | file | what |
 * |---|---|
 * | `stats/distributions.ts` | normal quantile (the options kernel's: Acklam, then a Halley step on Cody's Φ), Student's t quantile (incomplete beta, NR §6.4), `zForConfidence` |
 * | `stats/proportion.ts` | Wilson score interval for a hit rate (Wilson 1927; Newcombe 1998) |
 * | `stats/clustered.ts` | weekly-clustered intervals of a hit rate and a mean in one pass (cluster-robust variance; Wilson at the effective size) |
 * | `stats/sample.ts` | mean, sample standard deviation, Student-t interval for a mean (Student 1908) |
 * | `stats/trades.ts` | expectancy in R per trade, profit factor |
 * | `stats/rank.ts` | Spearman's rank correlation (Spearman 1904), average ranks for ties |
 * | `stats/monotonicity.ts` | "do higher score bands do better?" as numbers and a sentence |
 * | `stats/calibration.ts` | isotonic (PAV) and logistic fits of a score to a probability, ridge regression, Brier score and skill, reliability table, Newcombe's interval of a difference of proportions |
 *
 * Pure functions over plain numbers and arrays; bad options throw a
 * `RangeError`, too little data gives `NaN`.
 *
 * @example
 * wilsonInterval(81, 263); // => { lower: 0.2553…, upper: 0.3662…, … } (Newcombe 1998)
 * meanInterval([1, 2, 3, 4, 5]).upper; // => 4.9631…
 * expectancy([2, -1, 3, -1]).expectancyR; // => 0.75
 */
export { normalQuantile, studentTQuantile, Z_95, zForConfidence } from './stats/distributions';
export { scoreBandMonotonicity, type BandResult, type BandStep, type Monotonicity, type MonotonicityOptions, type MonotonicityVerdict } from './stats/monotonicity';
export { intervalsOverlap, wilsonBounds, wilsonInterval, type ProportionInterval } from './stats/proportion';
export { CLUSTER_N, CLUSTER_SUM, CLUSTER_WIDTH, CLUSTER_WINS, clusteredMeanInterval, clusteredRateInterval, type ClusteredInterval } from './stats/clustered';
export { averageRanks, spearman } from './stats/rank';
export {
  brierReport,
  brierScore,
  differenceInterval,
  isotonicFit,
  isotonicPredict,
  logisticFit,
  logisticPredict,
  reliabilityTable,
  ridgeFit,
  sigmoid,
  type BrierReport,
  type DifferenceInterval,
  type IsotonicFit,
  type LogisticFit,
  type ReliabilityBin,
} from './stats/calibration';
export { mean, meanInterval, sampleStdDev, type MeanInterval } from './stats/sample';
export { expectancy, profitFactor, type Expectancy } from './stats/trades';
