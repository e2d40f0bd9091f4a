/**
 * @module kernels/baseline-match
 * Both matched baselines of a set of trades, from bars the caller hands in
 * (bench/calibration's loaded series, or a worker's view of the shared bar
 * store): for each trade, its own price label (target1 before the stop,
 * prices only, from its entry bar) and two sets of random entries with its
 * direction and stop/target fractions, resolved by prices
 * (kernels/baseline):
 *
 * | baseline | drawn from | ATR(14)% bucket |
 * |---|---|---|
 * | year-matched (`base*`) | every bar of the trade's calendar year, in the universe that day | quintile cuts of the trades' own ATR% at entry |
 * | same-day (`same*`) | the trade's entry date, other members of the universe that day (kernels/baseline-same-day) | quintile cuts of that day's cross-section |
 *
 * The year-matched one reads bars of the whole year to draw from (later in
 * the year than the entry); the same-day one only the entry date's bars and
 * those before it to match. Each trade draws from its own stream
 * (kernels/random `seedOf` its symbol, entry time and levels, and `seed`), so
 * its draws do not depend on the other trades: with the same year-matched
 * cuts (`yearCuts`), trades matched in batches get what they get matched
 * together, and a trade keeps its same-day draws when more trades are added
 * (bar for bar the same data). `matches` 0 gives the labels alone.
 *
 * With `failFrac` on a trade, its same-day draws are held as the ledger holds
 * a trade under a failure rule (kernels/baseline `resolveManagedAt`), for
 * bench/failure-rule's lift in R.
 */
import type { Direction } from '../domain/signal';
import { atrPercent, bucketOf, geometryOf, quantileCuts, resolveAt, resolveManagedAt, sampleMatches } from './baseline';
import { crossSection, sampleSameDay, type CrossSection, type DayMember } from './baseline-same-day';
import { indexAtOrBefore, type Ohlcv } from './ohlcv';
import { resolveOutcome, type OutcomeResult } from './outcome';
import { seededRandom, seedOf } from './random';

/** A closed, entered trade as the baselines need it. */
export interface MatchTrade {
  symbol: string;
  direction: Direction;
  entry: number;
  /** ISO time of the entry bar. */
  entryAt: string;
  stopLoss: number;
  target1: number;
  /** bench/failure-rule: the failure level's distance as a fraction of the entry (null: none); same-day draws are then held by it. */
  failFrac?: number | null;
}

/** Per trade: its own price label and both baselines' draws (hits, resolved draws, Σ R). */
export interface MatchResult {
  priceHit: 0 | 1 | null;
  priceR: number | null;
  baseHits: number;
  baseN: number;
  baseSumR: number;
  sameHits: number;
  sameN: number;
  sameSumR: number;
}

export interface MatchOptions {
  /** The universe: the symbols random entries are drawn from. */
  symbols: readonly string[];
  /** Daily bars of a symbol (undefined when there are none). */
  barsOf: (symbol: string) => Ohlcv | undefined;
  /** Whether `symbol` is in the universe on `date` (YYYY-MM-DD); default always. */
  isMember?: (symbol: string, date: string) => boolean;
  /** Draws per trade and baseline. */
  matches: number;
  seed: number;
  /**
   * The year-matched quintile cuts, when the trades are matched in batches:
   * the cuts of all of them (else the cuts of these trades' own ATR% at entry).
   */
  yearCuts?: readonly number[];
  /** Called with every draw (an audit of what was drawn: tests, bench); nothing reads its return. */
  trace?: (draw: Draw) => void;
}

/** One random entry drawn for trade `trade` (its index): the baseline, the symbol and bar entered at, and how it ended. */
export interface Draw {
  trade: number;
  baseline: 'yearMatched' | 'sameDay';
  symbol: string;
  bar: number;
  outcome: OutcomeResult;
}

const DAY_MS = 86_400_000;
const dateOf = (ts: number) => new Date(ts).toISOString().slice(0, 10);

function tally(result: MatchResult, o: OutcomeResult, which: 'base' | 'same'): void {
  if (o.outcome === 'open') return;
  const win = o.outcome === 'win' ? 1 : 0;
  if (which === 'base') {
    result.baseN++;
    result.baseSumR += o.rMultiple;
    result.baseHits += win;
  } else {
    result.sameN++;
    result.sameSumR += o.rMultiple;
    result.sameHits += win;
  }
}

/** Both baselines of every trade of `trades`, in order; a trade whose symbol has no bar on its entry date gets no label and no draws. */
export function matchTrades(trades: readonly MatchTrade[], options: MatchOptions): MatchResult[] {
  const symbols = options.symbols.filter((s) => options.barsOf(s) !== undefined);
  const column = new Map(symbols.map((s, c) => [s, c]));
  const atr = new Map<string, Float64Array>();
  const atrOf = (symbol: string) => {
    let a = atr.get(symbol);
    if (!a) atr.set(symbol, (a = atrPercent(options.barsOf(symbol)!)));
    return a;
  };
  // Each trade's entry bar (the bar of its entry date).
  const at = trades.map((t) => {
    const bars = options.barsOf(t.symbol);
    if (!bars) return -1;
    const i = indexAtOrBefore(bars.ts, Date.parse(t.entryAt));
    return i >= 0 && dateOf(bars.ts[i]!) === t.entryAt.slice(0, 10) ? i : -1;
  });
  const draws = options.matches > 0;
  // Year-matched: candidates of each (year, bucket of the trades' own quintile cuts).
  const cuts =
    options.yearCuts ??
    quantileCuts(
      trades.flatMap((t, k) => (at[k]! >= 0 ? [atrOf(t.symbol)[at[k]!]!] : [])),
      [0.2, 0.4, 0.6, 0.8],
    );
  const candidates = new Map<string, number[]>();
  if (draws) {
    const years = new Set(trades.map((t) => t.entryAt.slice(0, 4)));
    symbols.forEach((symbol, c) => {
      const bars = options.barsOf(symbol)!;
      const a = atrOf(symbol);
      for (let i = 0; i < bars.ts.length - 1; i++) {
        const day = dateOf(bars.ts[i]!);
        if (!years.has(day.slice(0, 4))) continue;
        const b = bucketOf(a[i]!, cuts);
        if (b < 0 || (options.isMember && !options.isMember(symbol, day))) continue;
        const key = `${day.slice(0, 4)}|${b}`;
        let list = candidates.get(key);
        if (!list) candidates.set(key, (list = []));
        list.push(c * 2 ** 20 + i);
      }
    });
  }
  // Same-day: each entry date's cross-section, built once.
  const sections = new Map<string, CrossSection>();
  const sectionOn = (day: string): CrossSection => {
    let section = sections.get(day);
    if (section) return section;
    const start = Date.parse(`${day}T00:00:00.000Z`);
    const members: DayMember[] = [];
    symbols.forEach((symbol, c) => {
      if (options.isMember && !options.isMember(symbol, day)) return;
      const bars = options.barsOf(symbol)!;
      const i = indexAtOrBefore(bars.ts, start + DAY_MS - 1);
      if (i < 0 || bars.ts[i]! < start) return; // no bar on that date
      members.push({ column: c, bar: i, atrPct: atrOf(symbol)[i]! });
    });
    sections.set(day, (section = crossSection(members)));
    return section;
  };

  return trades.map((t, k) => {
    const result: MatchResult = { priceHit: null, priceR: null, baseHits: 0, baseN: 0, baseSumR: 0, sameHits: 0, sameN: 0, sameSumR: 0 };
    const i = at[k]!;
    const g = geometryOf(t.direction, t.entry, t.stopLoss, t.target1);
    if (i < 0 || !g) return result;
    const bars = options.barsOf(t.symbol)!;
    const own = resolveOutcome({ direction: t.direction, entry: t.entry, stopLoss: t.stopLoss, target1: t.target1, detectedIndex: i }, bars, bars.ts.length - 1);
    if (own.outcome !== 'open') {
      result.priceHit = own.outcome === 'win' ? 1 : 0;
      result.priceR = own.rMultiple;
    }
    if (!draws) return result;
    const random = seededRandom(seedOf(`${t.symbol}|${t.entryAt}|${t.direction}|${t.stopLoss}|${t.target1}`, options.seed));
    const tradeAtr = atrOf(t.symbol)[i]!;
    for (const packed of sampleMatches(candidates, `${t.entryAt.slice(0, 4)}|${bucketOf(tradeAtr, cuts)}`, options.matches, random)) {
      const symbol = symbols[Math.floor(packed / 2 ** 20)]!;
      const bar = packed % 2 ** 20;
      const outcome = resolveAt(g, options.barsOf(symbol)!, bar);
      tally(result, outcome, 'base');
      options.trace?.({ trade: k, baseline: 'yearMatched', symbol, bar, outcome });
    }
    const day = sectionOn(t.entryAt.slice(0, 10));
    for (const m of sampleSameDay(day, column.get(t.symbol) ?? -1, tradeAtr, options.matches, random)) {
      const symbol = symbols[m.column]!;
      const drawn = options.barsOf(symbol)!;
      const outcome = t.failFrac === undefined ? resolveAt(g, drawn, m.bar) : resolveManagedAt(g, drawn, m.bar, t.failFrac);
      tally(result, outcome, 'same');
      options.trace?.({ trade: k, baseline: 'sameDay', symbol, bar: m.bar, outcome });
    }
    return result;
  });
}
