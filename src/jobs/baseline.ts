/**
 * @module jobs/baseline
 * The matched random baseline of a set of trades (kernels/baseline has the
 * rules): each trade's own price label (target1 before the stop, prices only,
 * from its entry bar), and `matches` random entries of the same calendar year
 * and ATR(14)% quintile — from the universe's symbols that are members that
 * day — with the trade's direction, stop and target distances, resolved by
 * prices. The scorecard (modules/transparency) and bench/calibration both
 * use it.
 */
import type { Direction } from '../domain/signal';
import { atrPercent, bucketOf, geometryOf, quantileCuts, resolveAt, sampleMatches } from '../kernels/baseline';
import { seededRandom } from '../kernels/random';
import type { Ohlcv } from '../kernels/ohlcv';
import { resolveOutcome } from '../kernels/outcome';
import type { MarketData } from '../market-data';
import { indexAtOrBefore } from '../../workers/store';

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

export interface BaselineOptions {
  /** The symbols random entries are drawn from, and whether one is in the universe on a date (YYYY-MM-DD). */
  symbols: readonly string[];
  isMember?: (symbol: string, date: string) => boolean;
  matches: number;
  seed?: number;
  /** Series already loaded (bench/calibration keeps them), else read through `marketData`. */
  series?: Map<string, Ohlcv>;
}

const dateOf = (ts: number) => new Date(ts).toISOString().slice(0, 10);

/** The baseline of every trade of `trades` (in order); a trade whose symbol has no bar at its entry gets no label and no draws. */
export async function matchedBaseline(marketData: MarketData, trades: readonly BaselineTrade[], options: BaselineOptions): Promise<BaselineResult[]> {
  const loaded = options.series ?? new Map<string, Ohlcv>();
  const wanted = new Set([...options.symbols, ...trades.map((t) => t.symbol)]);
  for (const symbol of wanted) {
    if (loaded.has(symbol)) continue;
    const bars = await marketData.bars(symbol, 'daily').catch(() => null);
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
  const random = seededRandom(options.seed ?? 14);
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
