/**
 * The same-day matched baseline (kernels/baseline-same-day, and both
 * baselines together in kernels/baseline-match): draws from the entry date,
 * the trade's ATR% quintile of that day, other members only, the trade's
 * direction and geometry; a seed names the same draws; nothing after the
 * entry date is read to match.
 */
import { describe, expect, it } from 'bun:test';
import { atrPercent, bucketOf, geometryOf, resolveAt } from '../../src/kernels/baseline';
import { matchTrades, type Draw, type MatchTrade } from '../../src/kernels/baseline-match';
import { crossSection, sampleSameDay } from '../../src/kernels/baseline-same-day';
import type { Ohlcv } from '../../src/kernels/ohlcv';
import { headBars } from '../../src/kernels/ohlcv';
import { seededRandom } from '../helpers/random';

const DAY = 86_400_000;
const T0 = Date.UTC(2021, 0, 4);

describe('crossSection and sampleSameDay', () => {
  const members = Array.from({ length: 10 }, (_, c) => ({ column: c, bar: 100 + c, atrPct: c + 1 }));
  const day = crossSection([...members, { column: 99, bar: 1, atrPct: Number.NaN }]);

  it("cuts the day's ATR% at its own quintiles (nearest rank) and leaves out a member without ATR", () => {
    expect(day.cuts).toEqual([2, 4, 6, 8]);
    expect(day.members).toHaveLength(10);
    expect(day.byBucket.map((b) => b.map((i) => day.members[i]!.atrPct))).toEqual([[1], [2, 3], [4, 5], [6, 7], [8, 9, 10]]);
  });

  it("draws k entries from the trade's quintile, never the trade's own symbol", () => {
    const draws = sampleSameDay(day, 8, 9.5, 50, seededRandom(3));
    expect(draws).toHaveLength(50);
    for (const d of draws) {
      expect(bucketOf(d.atrPct, day.cuts)).toBe(4);
      expect(d.column).not.toBe(8);
    }
    expect(new Set(draws.map((d) => d.column))).toEqual(new Set([7, 9]));
  });

  it('draws the same entries for the same seed', () => {
    expect(sampleSameDay(day, 0, 5, 20, seededRandom(11))).toEqual(sampleSameDay(day, 0, 5, 20, seededRandom(11)));
  });

  it('draws nothing when no other member shares the quintile, or the ATR% is unknown', () => {
    expect(sampleSameDay(day, 0, 1, 5, seededRandom(1))).toEqual([]);
    expect(sampleSameDay(day, 3, Number.NaN, 5, seededRandom(1))).toEqual([]);
  });
});

/** A series of `n` daily bars from T0 whose daily range is `rangePct` of the close (so its ATR% is about that), drifting by `drift` a bar. */
function series(n: number, rangePct: number, drift: number, start = T0): Ohlcv {
  const ts = new Float64Array(n);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  let price = 100;
  for (let i = 0; i < n; i++) {
    ts[i] = start + i * DAY;
    open[i] = price;
    price *= 1 + drift * Math.sin(i / 3 + rangePct);
    close[i] = price;
    high[i] = Math.max(open[i]!, price) * (1 + rangePct / 200);
    low[i] = Math.min(open[i]!, price) * (1 - rangePct / 200);
  }
  return { ts, open, high, low, close, volume: new Float64Array(n).fill(1e6) };
}

describe('matchTrades: both baselines', () => {
  // 25 symbols, ATR% from about 1% to 5%; S3 starts 40 bars late (absent on early dates).
  const universe = Array.from({ length: 25 }, (_, c) => `S${c}`);
  const bars = new Map(universe.map((s, c) => [s, c === 3 ? series(260, 1 + c / 6, 0.02, T0 + 40 * DAY) : series(300, 1 + c / 6, 0.02)]));
  const entryBar = 120;
  const trades: MatchTrade[] = ['S2', 'S12', 'S20'].map((symbol, k) => {
    const b = bars.get(symbol)!;
    const close = b.close[entryBar + k]!;
    const long = k !== 1;
    return { symbol, direction: long ? 'long' : 'short', entry: close, entryAt: new Date(b.ts[entryBar + k]!).toISOString(), stopLoss: close * (long ? 0.95 : 1.05), target1: close * (long ? 1.1 : 0.9) };
  });

  const run = (barsOf: (s: string) => Ohlcv | undefined, seed = 14) => {
    const draws: Draw[] = [];
    const results = matchTrades(trades, { symbols: universe, barsOf, matches: 8, seed, trace: (d) => draws.push(d) });
    return { results, draws };
  };
  const full = run((s) => bars.get(s));

  it('draws the same-day entries on the entry date, from other members in the same ATR% quintile of that day', () => {
    const sameDay = full.draws.filter((d) => d.baseline === 'sameDay');
    expect(sameDay.length).toBe(8 * trades.length);
    for (const d of sameDay) {
      const t = trades[d.trade]!;
      const drawn = bars.get(d.symbol)!;
      expect(new Date(drawn.ts[d.bar]!).toISOString().slice(0, 10)).toBe(t.entryAt.slice(0, 10));
      expect(d.symbol).not.toBe(t.symbol);
      // The day's quintile cuts, computed here from every member with a bar that day.
      const day = universe.flatMap((s) => {
        const b = bars.get(s)!;
        const i = b.ts.indexOf(Date.parse(t.entryAt));
        return i >= 0 ? [atrPercent(b)[i]!] : [];
      });
      const sorted = [...day].sort((a, b) => a - b);
      const cuts = [0.2, 0.4, 0.6, 0.8].map((p) => sorted[Math.ceil(p * sorted.length) - 1]!);
      const own = atrPercent(bars.get(t.symbol)!)[bars.get(t.symbol)!.ts.indexOf(Date.parse(t.entryAt))]!;
      expect(bucketOf(atrPercent(drawn)[d.bar]!, cuts)).toBe(bucketOf(own, cuts));
    }
  });

  it("resolves every draw with the trade's own direction and stop/target fractions", () => {
    expect(full.draws.length).toBeGreaterThan(0);
    for (const d of full.draws) {
      const t = trades[d.trade]!;
      const g = geometryOf(t.direction, t.entry, t.stopLoss, t.target1)!;
      expect(d.outcome).toEqual(resolveAt(g, bars.get(d.symbol)!, d.bar));
    }
    const r = full.results[0]!;
    const mine = full.draws.filter((d) => d.trade === 0 && d.baseline === 'sameDay' && d.outcome.outcome !== 'open');
    expect(r.sameN).toBe(mine.length);
    expect(r.sameHits).toBe(mine.filter((d) => d.outcome.outcome === 'win').length);
  });

  it('draws the year-matched entries from the calendar year of the entry', () => {
    const year = full.draws.filter((d) => d.baseline === 'yearMatched');
    expect(year.length).toBe(8 * trades.length);
    for (const d of year) expect(new Date(bars.get(d.symbol)!.ts[d.bar]!).getUTCFullYear()).toBe(Number(trades[d.trade]!.entryAt.slice(0, 4)));
  });

  it('gives the same draws for the same seed, whatever other trades are matched with it', () => {
    expect(run((s) => bars.get(s)).draws).toEqual(full.draws);
    const alone: Draw[] = [];
    matchTrades([trades[2]!], { symbols: universe, barsOf: (s) => bars.get(s), matches: 8, seed: 14, trace: (d) => alone.push(d) });
    const same = (ds: Draw[]) => ds.filter((d) => d.baseline === 'sameDay').map(({ symbol, bar }) => ({ symbol, bar }));
    expect(same(alone)).toEqual(same(full.draws.filter((d) => d.trade === 2)));
    expect(run((s) => bars.get(s), 15).draws).not.toEqual(full.draws);
  });

  it('matches on the same day from bars up to the entry date only: cutting every series after it draws the same entries', () => {
    const last = Date.parse(trades.at(-1)!.entryAt);
    const cut = (s: string) => {
      const b = bars.get(s)!;
      let n = 0;
      while (n < b.ts.length && b.ts[n]! <= last) n++;
      return headBars(b, n);
    };
    const pick = (ds: Draw[]) => ds.filter((d) => d.baseline === 'sameDay').map(({ trade, symbol, bar }) => ({ trade, symbol, bar }));
    const draws: Draw[] = [];
    matchTrades(trades, { symbols: universe, barsOf: cut, matches: 8, seed: 14, trace: (d) => draws.push(d) });
    expect(pick(draws)).toEqual(pick(full.draws));
  });

  it('leaves out members without a bar on the entry date, and members outside the universe that day', () => {
    const early: MatchTrade = { ...trades[0]!, entryAt: new Date(T0 + 25 * DAY).toISOString(), entry: bars.get('S2')!.close[25]!, stopLoss: bars.get('S2')!.close[25]! * 0.95, target1: bars.get('S2')!.close[25]! * 1.1 };
    const draws: Draw[] = [];
    matchTrades([early], { symbols: universe, barsOf: (s) => bars.get(s), isMember: (s) => s !== 'S1', matches: 40, seed: 2, trace: (d) => draws.push(d) });
    const drawn = new Set(draws.filter((d) => d.baseline === 'sameDay').map((d) => d.symbol));
    expect(drawn.size).toBeGreaterThan(0);
    expect(drawn.has('S3')).toBe(false); // no bar on that date yet
    expect(drawn.has('S1')).toBe(false); // not a member
  });

  it('gives trades matched in batches, with the year-matched cuts of all of them, what they get matched together (the worker pool batches them)', () => {
    const cutsOfAll = [0.2, 0.4, 0.6, 0.8].map((p) => {
      const values = trades.map((t) => atrPercent(bars.get(t.symbol)!)[bars.get(t.symbol)!.ts.indexOf(Date.parse(t.entryAt))]!).sort((a, b) => a - b);
      return values[Math.ceil(p * values.length) - 1]!;
    });
    const options = { symbols: universe, barsOf: (s: string) => bars.get(s), matches: 8, seed: 14, yearCuts: cutsOfAll };
    const batched = [...matchTrades(trades.slice(0, 1), options), ...matchTrades(trades.slice(1), options)];
    expect(batched).toEqual(full.results);
  });
});
