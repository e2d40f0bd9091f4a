/**
 * @module kernels/backtest/folds
 * The purged walk-forward splitter: rolling folds of `train` bars, then
 * `purge` bars left out, then `test` bars, with `embargo` bars skipped after
 * each test window before the next one starts (López de Prado, "Advances in
 * Financial Machine Learning", Wiley 2018, ch. 7 "Cross-Validation in
 * Finance", §7.4 purging and embargo; the rolling layout of vectorbt's
 * `RollingSplitter`, `vectorbt/generic/splitters.py`).
 *
 * ```
 * s₀        = max(evalStart, train + purge)         first test bar
 * fold k:   test  = [s_k, min(s_k + test − 1, n − 1)]
 *           purge = [s_k − purge, s_k − 1]
 *           train = [s_k − purge − train, s_k − purge − 1]
 *           embargo = the `embargo` bars after the test window
 * s_(k+1)   = testEnd_k + 1 + embargo
 * ```
 *
 * Train windows roll: each is the `train` bars right before its fold's purge
 * gap, so it may cover earlier test windows (walk-forward: the past is always
 * fair to learn from). The last test window may be shorter than `test` when
 * the data ends (`partial`). Fewer than `train + purge + test` bars give no
 * fold.
 *
 * Purging is the caller's second half: a training observation whose label
 * window `[entry, exit]` reaches the test window is dropped, which
 * {@link purgedFromTraining} decides. The purge gap gives late training trades
 * bars to resolve in; the rule guarantees none overlaps the test window.
 *
 * @example
 * walkForwardFolds({ length: 100, evalStart: 60, train: 40, test: 15, purge: 2, embargo: 2 });
 * // => [{ trainStart: 18, trainEnd: 57, purgeStart: 58, purgeEnd: 59, testStart: 60, testEnd: 74, embargoEnd: 76, … },
 * //     { trainStart: 35, trainEnd: 74, …, testStart: 77, testEnd: 91, embargoEnd: 93, … },
 * //     { trainStart: 52, trainEnd: 91, …, testStart: 94, testEnd: 99, partial: true, … }]
 */

export interface FoldOptions {
  /** Bars in the series (calendar). */
  length: number;
  /** Index of the first bar of the evaluated period (test windows start here or later). */
  evalStart: number;
  train: number;
  test: number;
  purge: number;
  embargo: number;
}

export interface Fold {
  index: number;
  trainStart: number;
  trainEnd: number;
  /** Empty (start > end) when `purge` is 0. */
  purgeStart: number;
  purgeEnd: number;
  testStart: number;
  testEnd: number;
  /** Bars skipped after the test window, clipped at the series' end (empty when `embargo` is 0). */
  embargoStart: number;
  embargoEnd: number;
  /** The test window ends with the data, short of `test` bars. */
  partial: boolean;
}

function check(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`walkForwardFolds: ${name} must be an integer ≥ ${min}, got ${value}`);
}

/**
 * The folds over bars `0 … length − 1` whose test windows start at
 * `evalStart` or later.
 * @throws {RangeError} a non-integer option, `train` or `test` below 1, `purge`, `embargo`, `length` or `evalStart` below 0.
 */
export function walkForwardFolds(options: FoldOptions): Fold[] {
  const { length, evalStart, train, test, purge, embargo } = options;
  check('length', length, 0);
  check('evalStart', evalStart, 0);
  check('train', train, 1);
  check('test', test, 1);
  check('purge', purge, 0);
  check('embargo', embargo, 0);
  const folds: Fold[] = [];
  if (length < train + purge + test) return folds;
  for (let s = Math.max(evalStart, train + purge); s < length; ) {
    const testEnd = Math.min(s + test - 1, length - 1);
    folds.push({
      index: folds.length,
      trainStart: s - purge - train,
      trainEnd: s - purge - 1,
      purgeStart: s - purge,
      purgeEnd: s - 1,
      testStart: s,
      testEnd,
      embargoStart: testEnd + 1,
      embargoEnd: Math.min(testEnd + embargo, length - 1),
      partial: testEnd - s + 1 < test,
    });
    s = testEnd + 1 + embargo;
  }
  return folds;
}

/**
 * The same UTC time of day `months` calendar months before `ts`, the day
 * clamped to the month's last (31 August − 6 months = 28 or 29 February).
 * @example
 * new Date(monthsBefore(Date.UTC(2024, 2, 8), 6)).toISOString(); // => '2023-09-08T00:00:00.000Z'
 */
export function monthsBefore(ts: number, months: number): number {
  const d = new Date(ts);
  const month = d.getUTCMonth() - months;
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), month + 1, 0)).getUTCDate();
  return Date.UTC(d.getUTCFullYear(), month, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

/**
 * The folds over `calendar` (increasing bar times) whose test windows lie in
 * the last `months` calendar months up to its last bar: the evaluated period
 * starts at the first bar after {@link monthsBefore} the last one.
 */
export function periodFolds(calendar: ArrayLike<number>, options: Omit<FoldOptions, 'length' | 'evalStart'> & { months: number }): Fold[] {
  const n = calendar.length;
  if (n === 0) return [];
  const cutoff = monthsBefore(calendar[n - 1]!, options.months);
  let evalStart = 0;
  while (evalStart < n && calendar[evalStart]! <= cutoff) evalStart++;
  return walkForwardFolds({ length: n, evalStart, train: options.train, test: options.test, purge: options.purge, embargo: options.embargo });
}

/**
 * Whether a training observation with label window `[entry, exit]` (bar
 * indices) is left out of fold `fold`'s training set: it did not start inside
 * the train window, or its label reaches the purge gap's end or beyond, i.e.
 * overlaps the test window (López de Prado 2018, §7.4.1: "purge from the
 * training set all observations whose labels overlapped in time with those
 * labels included in the testing set").
 */
export function purgedFromTraining(fold: Pick<Fold, 'trainStart' | 'trainEnd' | 'testStart'>, entry: number, exit: number): boolean {
  return entry < fold.trainStart || entry > fold.trainEnd || exit >= fold.testStart;
}
