/**
 * @module kernels/backtest/candidates
 * Every trade the live signals offered a symbol, before any learning
 * decides which to take: the strategy's raw material. A candidate comes from
 * the scan at the close of bar t (kernels/backtest/signals) and fills on bar
 * t + 1 (kernels/backtest/fills):
 *
 * - a `forming` setup → a stop order at its trigger for bar t + 1;
 * - a setup first listed on its breakout bar (breakout at t: momentum events
 *   such as `new_high_52w` are only seen once they happen) → a market order at
 *   the open of bar t + 1;
 * - older triggered setups are not entered (the follower missed them).
 *
 * A setup (pattern type and geometry) gives at most one candidate, and no new
 * candidate of a pattern type is taken while the last one of that type is
 * still open. Each candidate is followed to its natural exit (stop, target1,
 * time stop, or the end of the data) and keeps the closes it was held
 * through, so a later step can cut it at the end of a test window
 * ({@link capAt}) without the bars. Band and score are those of bar t: what
 * the follower saw when deciding.
 *
 * @example
 * const candidates = candidateTrades(bars, signalsAtEachBar(bars, from, to), from, { maxHold: 20, costs });
 * candidates[0]; // => { patternType: 'flat_base', entryIndex: …, entryPrice: …, exitReason: 'target', r: 1.93, … }
 */
import type { Direction, PatternFamily, PatternType, ScoreBand } from '../../domain/signal';
import type { Ohlcv } from '../ohlcv';
import { fillEntry, netR, simulateExit, slipped, type Costs, type EntryKind, type ExitReason } from './fills';
import type { BarSignal } from './signals';

export interface CandidateTrade {
  symbol: string;
  /** `SYMBOL:patternType:startTs:endTs`: one setup. */
  key: string;
  patternType: PatternType;
  patternFamily: PatternFamily;
  direction: Direction;
  band: ScoreBand;
  finalScore: number;
  signalTs: number;
  entryKind: EntryKind;
  entryTs: number;
  /** After slippage. */
  entryPrice: number;
  trigger: number;
  stopLoss: number;
  target1: number;
  /** Natural exit, after slippage. */
  exitTs: number;
  exitPrice: number;
  exitReason: ExitReason;
  /** Net R of the natural exit (commission both ways). */
  r: number;
  /** Bar times from the entry bar to the exit bar, and their closes (typed: they cross threads as one block each). */
  pathTs: Float64Array | number[];
  pathClose: Float64Array | number[];
}

export interface CandidateOptions {
  /** Time stop, in bars after the entry bar. */
  maxHold: number;
  costs: Costs;
}

/**
 * The candidates of the signals in `perBar` (element k: the scan at bar
 * `from + k`), filled on the bars after them; a signal on the last bar of
 * `bars` has no bar to fill on.
 */
export function candidateTrades(symbol: string, bars: Ohlcv, perBar: readonly (readonly BarSignal[])[], from: number, options: CandidateOptions): CandidateTrade[] {
  const { costs, maxHold } = options;
  const last = bars.close.length - 1;
  const seen = new Set<string>();
  const openUntil = new Map<PatternType, number>();
  const out: CandidateTrade[] = [];
  for (let k = 0; k < perBar.length; k++) {
    const t = from + k;
    if (t >= last) break;
    const next = t + 1;
    for (const s of perBar[k]!) {
      const key = `${symbol}:${s.patternType}:${bars.ts[s.patternStart]}:${bars.ts[s.patternEnd]}`;
      if (seen.has(key) || (openUntil.get(s.patternType) ?? -1) >= next) continue;
      const kind: EntryKind | null = s.state === 'forming' ? 'stop' : s.breakoutIndex === t ? 'open' : null;
      if (kind === null) continue;
      const levels = { direction: s.direction, trigger: s.pivot, target1: s.target1, stopLoss: s.stopLoss };
      const fill = fillEntry(bars, next, kind, levels, costs);
      if (!fill) continue;
      seen.add(key);
      const exit = simulateExit(bars, { direction: s.direction, entryIndex: next, stopLoss: s.stopLoss, target1: s.target1 }, { maxHold, lastIndex: last, lastReason: 'end_of_data' }, costs);
      openUntil.set(s.patternType, exit.index);
      out.push({
        symbol,
        key,
        patternType: s.patternType,
        patternFamily: s.patternFamily,
        direction: s.direction,
        band: s.band,
        finalScore: s.finalScore,
        signalTs: bars.ts[t]!,
        entryKind: kind,
        entryTs: bars.ts[next]!,
        entryPrice: fill.price,
        trigger: s.pivot,
        stopLoss: s.stopLoss,
        target1: s.target1,
        exitTs: bars.ts[exit.index]!,
        exitPrice: exit.price,
        exitReason: exit.reason,
        r: netR(s.direction, fill.price, exit.price, s.stopLoss, costs),
        pathTs: bars.ts.slice(next, exit.index + 1),
        pathClose: bars.close.slice(next, exit.index + 1),
      });
    }
  }
  return out;
}

/** A candidate as traded inside a window ending at `windowEndTs`: its natural exit, or the close of the window's last bar it was held on. */
export interface WindowTrade extends CandidateTrade {
  /** Bars held from the entry bar to the exit bar. */
  barsHeld: number;
}

/**
 * The candidate cut at the end of a test window: unchanged when it exits by
 * `windowEndTs` (an `end_of_data` exit on that bar becomes `window_end`), else sold (bought back) at the close of its last bar at or
 * before it with slippage, `window_end`. Equals `simulateExit` with
 * `lastIndex` at the window's end, because the natural exit came later.
 * @throws {RangeError} a window that ends before the entry.
 */
export function capAt(c: CandidateTrade, windowEndTs: number, costs: Costs): WindowTrade {
  if (windowEndTs < c.entryTs) throw new RangeError(`capAt: the window ends before the entry of ${c.key}`);
  // An exit at the window's last bar only because the data ended there is the window's end too.
  if (c.exitTs < windowEndTs || (c.exitTs === windowEndTs && c.exitReason !== 'end_of_data')) return { ...c, barsHeld: c.pathTs.length - 1 };
  let j = c.pathTs.length - 1;
  while (c.pathTs[j]! > windowEndTs) j--;
  const exitPrice = slipped(c.pathClose[j]!, c.direction === 'long' ? 'sell' : 'buy', costs.slippageBps);
  return {
    ...c,
    exitTs: c.pathTs[j]!,
    exitPrice,
    exitReason: 'window_end',
    r: netR(c.direction, c.entryPrice, exitPrice, c.stopLoss, costs),
    pathTs: c.pathTs.slice(0, j + 1),
    pathClose: c.pathClose.slice(0, j + 1),
    barsHeld: j,
  };
}
