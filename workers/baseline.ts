/**
 * The matched random baseline (kernels/baseline has the rules): each trade's
 * own price label (target1 before the stop, prices only, from its entry bar),
 * and `matches` random entries of the same calendar year and ATR(14)%
 * quintile — from the universe's symbols that are members that day — with the
 * trade's direction, stop and target distances, resolved by prices.
 *
 * `matchTrades` is the computation, over any bars (jobs/baseline calls it on
 * bars it loaded, for bench/calibration); `baseline` is the worker task the
 * scorecard sends to the pool's background lane (issue 27: seconds of CPU for
 * a replay of two years, off the event loop), over the shared bar store, with
 * the trades as typed columns (nothing to copy but a few arrays).
 */
import type { Direction } from '../src/domain/signal';
import { atrPercent, bucketOf, geometryOf, quantileCuts, resolveAt, sampleMatches } from '../src/kernels/baseline';
import type { Ohlcv } from '../src/kernels/ohlcv';
import { resolveOutcome } from '../src/kernels/outcome';
import { seededRandom } from '../src/kernels/random';
import { sp500Membership } from '../src/providers/universe/membership';
import type { StoreHandle } from '../src/store';
import { indexAtOrBefore, store } from './store';

/** A closed, entered trade as the baseline needs it. */
export interface BaselineTrade {
  symbol: string;
  direction: Direction;
  entry: number;
  /** ISO time of the entry bar. */
  entryAt: string;
  stopLoss: number;
  target1: number;
}

/** Per trade: its own price label and its matched draws (hits, resolved draws, Σ R). */
export interface BaselineResult {
  priceHit: 0 | 1 | null;
  priceR: number | null;
  baseHits: number;
  baseN: number;
  baseSumR: number;
}

export interface MatchOptions {
  /** The symbols random entries are drawn from, and whether one is in the universe on a date (YYYY-MM-DD). */
  symbols: readonly string[];
  isMember?: (symbol: string, date: string) => boolean;
  /** A symbol's daily bars, or undefined without any. */
  barsOf: (symbol: string) => Ohlcv | undefined;
  matches: number;
  seed: number;
}

const dateOf = (ts: number) => new Date(ts).toISOString().slice(0, 10);

/** The baseline of every trade of `trades` (in order); a trade whose symbol has no bar at its entry gets no label and no draws. */
export function matchTrades(trades: readonly BaselineTrade[], options: MatchOptions): BaselineResult[] {
  const loaded = new Map<string, Ohlcv>();
  for (const symbol of new Set([...options.symbols, ...trades.map((t) => t.symbol)])) {
    const bars = options.barsOf(symbol);
    if (bars && bars.ts.length) loaded.set(symbol, bars);
  }
  const atr = new Map([...loaded].map(([symbol, bars]) => [symbol, atrPercent(bars)]));
  const at = trades.map((t) => {
    const bars = loaded.get(t.symbol);
    if (!bars) return -1;
    const i = indexAtOrBefore(bars.ts, Date.parse(t.entryAt));
    return i >= 0 && dateOf(bars.ts[i]!) === t.entryAt.slice(0, 10) ? i : -1;
  });
  const cuts = quantileCuts(
    trades.flatMap((t, k) => (at[k]! >= 0 ? [atr.get(t.symbol)![at[k]!]!] : [])),
    [0.2, 0.4, 0.6, 0.8],
  );
  const years = new Set(trades.map((t) => t.entryAt.slice(0, 4)));
  const symbols = options.symbols.filter((s) => loaded.has(s));
  const candidates = new Map<string, number[]>();
  symbols.forEach((symbol, c) => {
    const bars = loaded.get(symbol)!;
    const a = atr.get(symbol)!;
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
  const random = seededRandom(options.seed);
  return trades.map((t, k) => {
    const result: BaselineResult = { priceHit: null, priceR: null, baseHits: 0, baseN: 0, baseSumR: 0 };
    const i = at[k]!;
    const g = geometryOf(t.direction, t.entry, t.stopLoss, t.target1);
    if (i < 0 || !g) return result;
    const bars = loaded.get(t.symbol)!;
    const own = resolveOutcome({ direction: t.direction, entry: t.entry, stopLoss: t.stopLoss, target1: t.target1, detectedIndex: i }, bars, bars.ts.length - 1);
    if (own.outcome !== 'open') {
      result.priceHit = own.outcome === 'win' ? 1 : 0;
      result.priceR = own.rMultiple;
    }
    for (const packed of sampleMatches(candidates, `${t.entryAt.slice(0, 4)}|${bucketOf(atr.get(t.symbol)![i]!, cuts)}`, options.matches, random)) {
      const o = resolveAt(g, loaded.get(symbols[Math.floor(packed / 2 ** 20)]!)!, packed % 2 ** 20);
      if (o.outcome === 'open') continue;
      result.baseN++;
      result.baseSumR += o.rMultiple;
      if (o.outcome === 'win') result.baseHits++;
    }
    return result;
  });
}

/** Trades as columns: a symbol's index into `symbols`, the direction (1 long, −1 short), the levels, the entry bar's time. */
export interface BaselineColumns {
  symbol: Int32Array;
  direction: Int8Array;
  entry: Float64Array;
  entryAtMs: Float64Array;
  stopLoss: Float64Array;
  target1: Float64Array;
}

export interface BaselineInput {
  handle: StoreHandle;
  /** The universe random entries are drawn from (its symbols' daily bars are in the store). */
  symbols: string[];
  /** `sp500`: a symbol is drawn only on dates it was a member (point-in-time); null: every date. */
  membership: 'sp500' | null;
  /** The trades' symbols are `names[trades.symbol[k]]`. */
  names: string[];
  trades: BaselineColumns;
  matches: number;
  seed: number;
}

/** Per trade, in order: the price label (NaN: none), its R (NaN: none), and the draws' hits, count and Σ R. */
export interface BaselineOutput {
  priceHit: Float64Array;
  priceR: Float64Array;
  baseHits: Float64Array;
  baseN: Float64Array;
  baseSumR: Float64Array;
}

/** The worker task (see the module comment). */
export function baseline(input: BaselineInput): BaselineOutput {
  const s = store(input.handle);
  const { trades, names } = input;
  const n = trades.symbol.length;
  const list: BaselineTrade[] = Array.from({ length: n }, (_, k) => ({
    symbol: names[trades.symbol[k]!]!,
    direction: trades.direction[k]! > 0 ? 'long' : 'short',
    entry: trades.entry[k]!,
    entryAt: new Date(trades.entryAtMs[k]!).toISOString(),
    stopLoss: trades.stopLoss[k]!,
    target1: trades.target1[k]!,
  }));
  const membership = input.membership === 'sp500' ? sp500Membership() : undefined;
  const results = matchTrades(list, {
    symbols: input.symbols,
    ...(membership ? { isMember: (symbol: string, date: string) => membership.isMember(symbol, date) } : {}),
    barsOf: (symbol) => s.get(symbol, 'daily'),
    matches: input.matches,
    seed: input.seed,
  });
  const out: BaselineOutput = { priceHit: new Float64Array(n), priceR: new Float64Array(n), baseHits: new Float64Array(n), baseN: new Float64Array(n), baseSumR: new Float64Array(n) };
  results.forEach((r, k) => {
    out.priceHit[k] = r.priceHit ?? Number.NaN;
    out.priceR[k] = r.priceR ?? Number.NaN;
    out.baseHits[k] = r.baseHits;
    out.baseN[k] = r.baseN;
    out.baseSumR[k] = r.baseSumR;
  });
  return out;
}
