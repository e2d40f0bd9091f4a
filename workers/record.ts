/**
 * Worker entry points of the record section (src/jobs/record): both matched
 * baselines of the ledger's closed daily trades drawn from the shared bar
 * store (kernels/baseline-match), and the figures, alert-policy record and
 * edge statement over them (ledger/record-summary). Three tasks, so no task
 * holds a thread long: the year-matched quintile cuts of all trades, the
 * draws of a batch of trades, the summary; and the scorecard's confidence
 * check, whose sort held the server's thread 55 ms over a boot replay.
 */
import type { UniverseSpec } from '../src/domain/replay';
import { atrPercent, quantileCuts } from '../src/kernels/baseline';
import { matchTrades, type MatchResult, type MatchTrade } from '../src/kernels/baseline-match';
import type { Ohlcv } from '../src/kernels/ohlcv';
import { unpackRows, type PackedRows } from '../src/ledger/packed-rows';
import { confidenceOf, type ConfidenceCheck } from '../src/ledger/performance';
import { recordSummary, type RecordSummary, type SummaryTrade } from '../src/ledger/record-summary';
import { sp500Membership } from '../src/providers/universe/membership';
import type { StoreHandle } from '../src/store';
import { indexAtOrBefore, store } from './store';

/** A reader of the store's daily bars, each series looked up once. */
function dailyBars(handle: StoreHandle): (symbol: string) => Ohlcv | undefined {
  const s = store(handle);
  const held = new Map<string, Ohlcv | undefined>();
  return (symbol) => {
    if (!held.has(symbol)) held.set(symbol, s.get(symbol, 'daily'));
    return held.get(symbol);
  };
}

export interface RecordCutsInput {
  handle: StoreHandle;
  /** Every trade's symbol and entryAt (`CUT_FIELDS`), packed (ledger/packed-rows). */
  trades: PackedRows;
}

/** The year-matched baseline's ATR(14)% quintile cuts: the trades' own ATR% at their entry bars. */
export function recordCuts({ handle, trades: packed }: RecordCutsInput): number[] {
  const trades = unpackRows<Pick<MatchTrade, 'symbol' | 'entryAt'>>(packed);
  const barsOf = dailyBars(handle);
  const atr = new Map<string, Float64Array>();
  const values: number[] = [];
  for (const t of trades) {
    const bars = barsOf(t.symbol);
    if (!bars) continue;
    const i = indexAtOrBefore(bars.ts, Date.parse(t.entryAt));
    if (i < 0 || new Date(bars.ts[i]!).toISOString().slice(0, 10) !== t.entryAt.slice(0, 10)) continue;
    let a = atr.get(t.symbol);
    if (!a) atr.set(t.symbol, (a = atrPercent(bars)));
    values.push(a[i]!);
  }
  return quantileCuts(values, [0.2, 0.4, 0.6, 0.8]);
}

export interface RecordMatchInput {
  handle: StoreHandle;
  trades: MatchTrade[];
  /** The universe random entries are drawn from, and its kind (`sp500`: members of each date). */
  symbols: string[];
  universe: UniverseSpec['kind'];
  matches: number;
  seed: number;
  /** `recordCuts` over every trade. */
  yearCuts: number[];
}

/** Both baselines of a batch of trades (kernels/baseline-match). */
export function recordMatch({ handle, trades, symbols, universe, matches, seed, yearCuts }: RecordMatchInput): MatchResult[] {
  const membership = universe === 'sp500' ? sp500Membership() : null;
  return matchTrades(trades, { symbols, barsOf: dailyBars(handle), ...(membership ? { isMember: (s: string, d: string) => membership.isMember(s, d) } : {}), matches, seed, yearCuts });
}

/** The record section over trades that carry their baselines (ledger/record-summary), packed (`SUMMARY_FIELDS`). */
export function recordSection({ trades }: { trades: PackedRows }): RecordSummary {
  return recordSummary(unpackRows<SummaryTrade>(trades));
}

/** The confidence check of closed trades' confidences and wins (ledger/figures `confidenceInputs`; ledger/performance `confidenceOf`). */
export function recordConfidence({ p, y }: { p: Float64Array; y: Float64Array }): ConfidenceCheck {
  return confidenceOf(p, y);
}
