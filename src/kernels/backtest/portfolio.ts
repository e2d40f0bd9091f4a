/**
 * @module kernels/backtest/portfolio
 * An account trading a list of trades under a position limit, marked to
 * market at every close of the evaluation calendar:
 *
 * ```
 * at each calendar bar d, in order:
 *   entries dated d (earlier unprocessed ones first), by finalScore, then key:
 *     refused when the symbol is already held, or maxPositions are open
 *     shares = ⌊ (equity at the previous close / maxPositions) / entry price ⌋  (refused at 0)
 *     cash  −= sign·shares·entry + commission·shares
 *   exits dated d or earlier:  cash += sign·shares·exit − commission·shares
 *   equity_d = cash + Σ open sign·shares·close_d    (sign = +1 long, −1 short)
 *   r_d      = equity_d / equity_(d−1) − 1
 * exposure = share of calendar bars on which a position was held (entered that bar or before,
 *            not exited before it)
 * ```
 *
 * Equal slots of the equity, fixed at entry, are the simplest sizing that
 * keeps the limit meaningful. Entries are processed before exits on a bar,
 * so a slot freed on a bar is used from the next bar on (no same-bar
 * recycling). A trade whose entry bar is missing from the calendar (a
 * symbol trading on a day the calendar does not have) enters at the next
 * calendar bar's processing, at its own price. Marks use the trade's own
 * closes (`pathClose`): the last one at or before the bar.
 *
 * @example
 * const account = tradePortfolio(calendar, trades, { capital: 100_000, maxPositions: 1, commissionPerShare: 0.005 });
 * account.equity.at(-1); // => the ending equity
 */
import type { Direction } from '../../domain/signal';
import type { WindowTrade } from './candidates';

export interface PortfolioOptions {
  capital: number;
  maxPositions: number;
  commissionPerShare: number;
}

export interface FilledTrade extends WindowTrade {
  shares: number;
  /** Net dollars: sign·shares·(exit − entry) − commission·shares both ways. */
  pnl: number;
}

export const REFUSALS = ['position_limit', 'symbol_held', 'too_small'] as const;
export type Refusal = (typeof REFUSALS)[number];

export interface PortfolioRun {
  /** Equity at the close of each calendar bar. */
  equity: number[];
  /** r_d per calendar bar. */
  returns: number[];
  /** 1 when a position was held on the bar. */
  held: Uint8Array;
  trades: FilledTrade[];
  refused: Record<Refusal, number>;
}

const signOf = (d: Direction) => (d === 'long' ? 1 : -1);

/** The trade's last close at or before `ts` (its entry-bar close before the first). */
function markAt(t: WindowTrade, ts: number): number {
  let j = 0;
  while (j + 1 < t.pathTs.length && t.pathTs[j + 1]! <= ts) j++;
  return t.pathClose[j]!;
}

/**
 * Trades `trades` (any order) over `calendar` (increasing bar times).
 * @throws {RangeError} a non-positive capital, a maxPositions that is not a positive integer, or a negative commission.
 */
export function tradePortfolio(calendar: readonly number[], trades: readonly WindowTrade[], options: PortfolioOptions): PortfolioRun {
  const { capital, maxPositions, commissionPerShare } = options;
  if (!(capital > 0) || !Number.isFinite(capital)) throw new RangeError(`tradePortfolio: capital must be positive, got ${capital}`);
  if (!Number.isInteger(maxPositions) || maxPositions < 1) throw new RangeError(`tradePortfolio: maxPositions must be a positive integer, got ${maxPositions}`);
  if (!(commissionPerShare >= 0)) throw new RangeError(`tradePortfolio: commissionPerShare must be ≥ 0, got ${commissionPerShare}`);
  const queue = [...trades].sort((a, b) => a.entryTs - b.entryTs || b.finalScore - a.finalScore || a.key.localeCompare(b.key));
  let next = 0;
  let cash = capital;
  let previous = capital;
  const open: { trade: WindowTrade; shares: number; sign: number }[] = [];
  const equity: number[] = [];
  const returns: number[] = [];
  const held = new Uint8Array(calendar.length);
  const filled: FilledTrade[] = [];
  const refused: Record<Refusal, number> = { position_limit: 0, symbol_held: 0, too_small: 0 };

  calendar.forEach((d, k) => {
    for (; next < queue.length && queue[next]!.entryTs <= d; next++) {
      const trade = queue[next]!;
      if (open.some((p) => p.trade.symbol === trade.symbol)) refused.symbol_held++;
      else if (open.length >= maxPositions) refused.position_limit++;
      else {
        const shares = Math.floor(previous / maxPositions / trade.entryPrice);
        if (shares < 1) refused.too_small++;
        else {
          const sign = signOf(trade.direction);
          cash -= sign * shares * trade.entryPrice + commissionPerShare * shares;
          open.push({ trade, shares, sign });
        }
      }
    }
    if (open.length) held[k] = 1;
    let value = 0;
    for (let i = 0; i < open.length; ) {
      const { trade, shares, sign } = open[i]!;
      if (trade.exitTs <= d) {
        cash += sign * shares * trade.exitPrice - commissionPerShare * shares;
        filled.push({ ...trade, shares, pnl: sign * shares * (trade.exitPrice - trade.entryPrice) - 2 * commissionPerShare * shares });
        open.splice(i, 1);
      } else {
        value += sign * shares * markAt(trade, d);
        i++;
      }
    }
    const now = cash + value;
    equity.push(now);
    returns.push(now / previous - 1);
    previous = now;
  });
  return { equity, returns, held, trades: filled, refused };
}
