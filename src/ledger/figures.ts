/**
 * @module ledger/figures
 * The track-record figures of a book's trades (ledger/book), in one pass over
 * its columns: the figures of every trade kept, and of each group of them by
 * any coded column (pattern, band, regime, timeframe, direction), with the
 * same definitions as `performance` and `performanceBy` over a list
 * (ledger/performance: the same tally, the trades in the same order, so the
 * same numbers). The pass gives the event loop back every `SLICE` trades:
 * 800k records' trades never hold it more than a few milliseconds at a time.
 *
 * @example
 * const { all, by } = await tallyColumns(book.columns, () => true, { band: book.columns.scoreBand });
 * by.band.strong.hitRate; // => 0.52
 */
import { yieldToEventLoop } from '../db/client';
import { weekOf } from '../kernels/stats/cluster-bootstrap';
import { PerformanceTally, type Performance } from './performance';
import { TradeColumns } from './trade-columns';

/**
 * Trades tallied between two yields to the event loop: 20,000 tallied into
 * five groupings held it 66 ms a slice over a boot replay's 128k trades at
 * load 13 (issue 27).
 */
const SLICE = 5_000;

export interface ColumnTally<K extends string> {
  all: Performance;
  by: Record<K, Record<string, Performance>>;
  /** The trades kept, in order (for a listing). */
  kept: number[];
}

/** The figures of the trades `keep` accepts, overall and per value of each coded column in `by` (keys sorted). */
export async function tallyColumns<K extends string>(c: TradeColumns, keep: (i: number) => boolean, by: Record<K, Int32Array>): Promise<ColumnTally<K>> {
  const all = new PerformanceTally();
  const names = Object.keys(by) as K[];
  const groups = names.map(() => new Map<number, PerformanceTally>());
  const kept: number[] = [];
  const value = TradeColumns.value;
  // The week of detection per detectedAt code (the intervals cluster trades by it), computed once per distinct time.
  const weeks = new Map<number, number>();
  const weekAt = (code: number): number => {
    let week = weeks.get(code);
    if (week === undefined) weeks.set(code, (week = weekOf(c.words[code]!)));
    return week;
  };
  for (let i = 0; i < c.n; i++) {
    if (i > 0 && i % SLICE === 0) await yieldToEventLoop();
    if (!keep(i)) continue;
    kept.push(i);
    const outcome = c.outcomeOf(i);
    const entered = c.entered[i] === 1;
    const r = value(c.rMultiple[i]!);
    const days = value(c.daysHeld[i]!);
    const week = weekAt(c.detectedAt[i]!);
    all.add(outcome, entered, r, days, week);
    for (let g = 0; g < names.length; g++) {
      const code = by[names[g]!][i]!;
      let tally = groups[g]!.get(code);
      if (!tally) groups[g]!.set(code, (tally = new PerformanceTally()));
      tally.add(outcome, entered, r, days, week);
    }
  }
  const result = {} as Record<K, Record<string, Performance>>;
  names.forEach((name, g) => {
    const entries = [...groups[g]!].map(([code, tally]) => [c.words[code]!, tally] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    result[name] = Object.fromEntries(entries.map(([word, tally]) => [word, tally.result()]));
  });
  return { all: all.result(), by: result, kept };
}

/**
 * What the confidence check (ledger/performance `confidenceOf`) reads: the
 * confidences `p` of the closed, entered trades that have one, in order, and
 * their wins `y` (1 a win, 0 a loss or scratch) — typed arrays, so the check
 * can run on a worker thread (jobs/record `confidenceInPool`) for the price of
 * copying two buffers.
 */
export async function confidenceInputs(c: TradeColumns): Promise<{ p: Float64Array; y: Float64Array }> {
  const p = new Float64Array(c.n);
  const y = new Float64Array(c.n);
  let k = 0;
  for (let i = 0; i < c.n; i++) {
    // A turn of the loop every SLICE trades: the pass over a boot replay's 128k held the thread 54 ms in one (load 10).
    if (i > 0 && i % SLICE === 0) await yieldToEventLoop();
    if (c.outcome[i] === 0 || c.entered[i] !== 1 || Number.isNaN(c.confidence[i]!)) continue;
    p[k] = c.confidence[i]!;
    y[k++] = c.outcome[i] === 1 ? 1 : 0;
  }
  return { p: p.slice(0, k), y: y.slice(0, k) };
}
