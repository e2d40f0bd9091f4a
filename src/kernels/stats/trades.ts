/**
 * @module kernels/stats/trades
 * Expectancy and profit factor over closed trades' R-multiples.
 *
 * ```
 * expectancy    = winRate × averageWinR − lossRate × averageLossR   (R per trade)
 * profitFactor  = Σ winning R / |Σ losing R|
 * ```
 *
 * A winner is R > 0, a loser R < 0, and a trade at exactly 0R counts in the
 * denominator only; so expectancy equals the plain mean R per trade (the terms
 * are Σwins/n and Σ|losses|/n). This is Tharp's expectancy in R (Tharp, "Trade
 * Your Way to Financial Freedom", 2nd ed., McGraw-Hill, 2007). The sign of R decides,
 * not the ledger's label: a scratch that closed above entry is a winner here,
 * so `winRate` can differ from the ledger's hit rate (wins / closed trades).
 * Open trades are the caller's to leave out.
 *
 * @example
 * expectancy([2, -1, 3, -1, 0, -0.5]); // => { expectancyR: 0.41666…, winRate: 1/3, averageWinR: 2.5, lossRate: 0.5, averageLossR: 0.8333…, … }
 * profitFactor([2, -1, 3, -1, 0, -0.5]); // => 2
 */

export interface Expectancy {
  trades: number;
  winRate: number;
  lossRate: number;
  /** Mean R of winners; `NaN` with none. */
  averageWinR: number;
  /** Mean |R| of losers, a positive number; `NaN` with none. */
  averageLossR: number;
  /** Average R per trade; `NaN` with no trades. */
  expectancyR: number;
}

function sums(rMultiples: ArrayLike<number>, who: string) {
  let wins = 0;
  let losses = 0;
  let winR = 0;
  let lossR = 0;
  for (let i = 0; i < rMultiples.length; i++) {
    const r = rMultiples[i]!;
    if (!Number.isFinite(r)) throw new RangeError(`${who}: R-multiple ${i} is not finite (${r})`);
    if (r > 0) {
      wins++;
      winR += r;
    } else if (r < 0) {
      losses++;
      lossR -= r;
    }
  }
  return { wins, losses, winR, lossR };
}

/**
 * Win rate, average win and loss in R, and expectancy in R per trade.
 * @throws {RangeError} a non-finite R-multiple.
 */
export function expectancy(rMultiples: ArrayLike<number>): Expectancy {
  const n = rMultiples.length;
  const { wins, losses, winR, lossR } = sums(rMultiples, 'expectancy');
  if (n === 0) return { trades: 0, winRate: NaN, lossRate: NaN, averageWinR: NaN, averageLossR: NaN, expectancyR: NaN };
  return {
    trades: n,
    winRate: wins / n,
    lossRate: losses / n,
    averageWinR: wins ? winR / wins : NaN,
    averageLossR: losses ? lossR / losses : NaN,
    // winRate·avgWin − lossRate·avgLoss, written so an empty side adds 0, not NaN.
    expectancyR: (winR - lossR) / n,
  };
}

/**
 * Gross winning R over gross losing R. With no losers it is `Infinity` (or
 * `NaN` when there are no winners either); JSON has neither, so a caller that
 * serialises it must decide how to show them.
 * @throws {RangeError} a non-finite R-multiple.
 */
export function profitFactor(rMultiples: ArrayLike<number>): number {
  const { winR, lossR } = sums(rMultiples, 'profitFactor');
  if (lossR === 0) return winR > 0 ? Infinity : NaN;
  return winR / lossR;
}
