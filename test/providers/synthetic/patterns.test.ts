/**
 * Injected chart patterns, checked on the bars that actually formed. The
 * geometry limits are the ones the patterns are defined by: O'Neil (flat base
 * 8–15 % deep over 5–10 weeks after a 30 % advance; cup 15–33 % deep over
 * 7–30 weeks with its handle in the upper half), Minervini (2–4 contractions
 * on drying volume), Bulkowski (flags and triangles).
 */
import { beforeAll, describe, expect, it } from 'bun:test';
import { PATTERN_TYPES, type PatternRecord } from '../../../src/providers/synthetic';
import { loadInstruments } from '../../../src/providers/universe';
import type { BarSeries } from '../../../src/providers/types';
import { isoDay, logReturns, mean, median, provider, variance } from './fixtures';

const market = provider();
const stocks = loadInstruments().filter((i) => i.kind === 'stock');
const bars = new Map<string, BarSeries>();
const index = new Map<string, Map<string, number>>();
const records: PatternRecord[] = [];

beforeAll(async () => {
  for (const { symbol } of stocks) {
    const s = await market.bars({ symbol, timeframe: 'daily' });
    bars.set(symbol, s);
    index.set(symbol, new Map(Array.from(s.ts, (t, i) => [isoDay(t), i])));
    records.push(...market.injectedPatterns(symbol));
  }
});

const resolved = () => records.filter((r) => r.outcome !== 'pending');
const at = (r: PatternRecord, date: string | null) => index.get(r.symbol)!.get(date!)!;
const share = (rs: PatternRecord[], ok: (r: PatternRecord) => boolean) => rs.filter(ok).length / rs.length;

describe('how often patterns are injected', () => {
  it('gives a realistic rate: a couple of episodes per stock over the history', () => {
    expect(records.length / stocks.length).toBeWithin(0.5, 5);
    expect(new Set(records.map((r) => r.symbol)).size / stocks.length).toBeGreaterThan(0.5);
  });

  it('has only a few percent of stocks inside a pattern on a typical day', () => {
    const sessions = bars.get(stocks[0]!.symbol)!.ts.length;
    const inside = new Float64Array(sessions);
    for (const r of records) {
      if (r.start === null) continue;
      const end = r.end === null ? sessions - 1 : at(r, r.end);
      for (let i = at(r, r.start); i <= end; i++) inside[i]!++;
    }
    const fraction = mean(Array.from(inside.subarray(250), (n) => n / stocks.length));
    expect(fraction).toBeWithin(0.01, 0.1);
  });

  it('injects every pattern type, stocks only', async () => {
    for (const type of PATTERN_TYPES) expect(records.filter((r) => r.pattern === type).length).toBeGreaterThan(20);
    for (const symbol of ['SPY', 'QQQ', 'XLK']) expect(market.injectedPatterns(symbol)).toEqual([]);
  });

  it('ends in a breakout about 60 % of the time and in a failure otherwise', () => {
    expect(share(resolved(), (r) => r.outcome === 'breakout')).toBeWithin(0.5, 0.7);
  });
});

describe('what the bars show', () => {
  it('orders the dates: prior move, pattern, pivot, trigger the session after the end, outcome', () => {
    expect(resolved().length).toBeGreaterThan(0);
    for (const r of resolved()) {
      expect(r.trendStart <= r.start! && r.start! <= r.pivotDate! && r.pivotDate! <= r.end!).toBe(true);
      expect(at(r, r.triggerDate)).toBe(at(r, r.end) + 1);
      expect(r.outcomeDate! >= r.triggerDate!).toBe(true);
    }
  });

  it('sets the pivot at a real high (low for shorts) that no close inside the pattern crosses', () => {
    expect(resolved().length).toBeGreaterThan(0);
    for (const r of resolved()) {
      const s = bars.get(r.symbol)!;
      const long = r.direction === 'long';
      expect(long ? s.high[at(r, r.pivotDate)] : s.low[at(r, r.pivotDate)]).toBe(r.pivot!);
      for (let i = at(r, r.pivotDate); i <= at(r, r.end); i++) expect(long ? s.close[i]! <= r.pivot! : s.close[i]! >= r.pivot!).toBe(true);
      let hi = -Infinity;
      let lo = Infinity;
      for (let i = at(r, r.start); i <= at(r, r.end); i++) {
        hi = Math.max(hi, s.high[i]!);
        lo = Math.min(lo, s.low[i]!);
      }
      expect([r.baseHigh, r.baseLow]).toEqual([hi, lo]);
    }
  });

  it('triggers with a close beyond the pivot; breakouts on expanded volume', () => {
    for (const r of resolved()) {
      const close = bars.get(r.symbol)!.close[at(r, r.triggerDate)]!;
      expect(r.direction === 'long' ? close > r.pivot! : close < r.pivot!).toBe(true);
    }
    const ratios = resolved().filter((r) => r.outcome === 'breakout').map((r) => r.triggerVolumeRatio!);
    expect(median(ratios)).toBeGreaterThan(1.8);
    expect(ratios.filter((x) => x >= 1.3).length / ratios.length).toBeGreaterThan(0.9);
  });

  it('fails by closing back through the pattern', () => {
    const failures = resolved().filter((x) => x.outcome === 'failure');
    expect(failures.length).toBeGreaterThan(0);
    for (const r of failures) {
      const close = bars.get(r.symbol)!.close[at(r, r.outcomeDate)]!;
      expect(r.direction === 'long' ? close < r.invalidation! : close > r.invalidation!).toBe(true);
    }
  });

  it('hides what had not happened yet at the clock', () => {
    const pending = records.filter((r) => r.outcome === 'pending');
    expect(pending.length).toBeGreaterThan(0);
    for (const r of pending) {
      expect(r.outcomeDate).toBeNull();
      if (r.end === null) expect([r.pivot, r.pivotDate, r.triggerDate]).toEqual([null, null, null]);
    }
    const lastSession = isoDay(bars.get('AAPL')!.ts.at(-2)!);
    for (const r of records) expect(r.trendStart <= lastSession).toBe(true);
  });
});

describe('pattern geometry', () => {
  const of = (type: string) => resolved().filter((r) => r.pattern === type);
  const sessions = (r: PatternRecord) => at(r, r.end) - at(r, r.start) + 1;

  it('flat base: 8–15 % deep over 5–10 weeks after an advance of at least 30 %', () => {
    const bases = of('flat_base');
    expect(share(bases, (r) => r.depth! >= 0.08 && r.depth! <= 0.15)).toBeGreaterThan(0.9);
    expect(share(bases, (r) => sessions(r) >= 24 && sessions(r) <= 52)).toBe(1);
    expect(share(bases, (r) => r.priorMove! >= 0.3)).toBeGreaterThan(0.95);
  });

  it('cup with handle: 15–33 % deep over 7–30 weeks, handle in the upper half', () => {
    const cups = of('cup_with_handle');
    expect(share(cups, (r) => r.depth! >= 0.15 && r.depth! <= 0.33)).toBeGreaterThan(0.9);
    expect(share(cups, (r) => sessions(r) >= 35 && sessions(r) <= 150)).toBe(1);
    expect(share(cups, (r) => r.invalidation! > (r.baseHigh! + r.baseLow!) / 2)).toBeGreaterThan(0.95);
  });

  it('volatility contraction: 2–4 pullbacks with volume drying up into the pivot', () => {
    const vcps = of('vcp');
    expect(vcps.every((r) => r.contractions >= 2 && r.contractions <= 4)).toBe(true);
    const dried = (r: PatternRecord) => {
      const v = bars.get(r.symbol)!.volume;
      const before = at(r, r.trendStart);
      return mean(v.subarray(at(r, r.pivotDate), at(r, r.end) + 1)) < 0.8 * mean(v.subarray(Math.max(0, before - 50), before));
    };
    expect(share(vcps, dried)).toBeGreaterThan(0.8);
  });

  it('flags: a sharp pole then a short channel against it', () => {
    expect(share(of('bull_flag'), (r) => r.priorMove! > 0.1 && sessions(r) <= 25)).toBeGreaterThan(0.95);
    expect(share(of('bear_flag'), (r) => r.priorMove! < -0.08 && sessions(r) <= 25)).toBeGreaterThan(0.95);
  });

  it('triangles: repeated tests of a flat line, swings narrowing toward it', () => {
    const touches = (r: PatternRecord) => {
      const s = bars.get(r.symbol)!;
      let n = 0;
      for (let i = at(r, r.start); i <= at(r, r.end); i++) {
        const near = r.direction === 'long' ? s.high[i]! >= 0.98 * r.pivot! : s.low[i]! <= 1.02 * r.pivot!;
        if (near && (n === 0 || true)) n++;
      }
      return n;
    };
    expect(share(of('ascending_triangle'), (r) => touches(r) >= 3 && r.invalidation! > r.baseLow!)).toBeGreaterThan(0.9);
    expect(share(of('descending_triangle'), (r) => touches(r) >= 3 && r.invalidation! < r.baseHigh!)).toBeGreaterThan(0.9);
  });
});

describe('steering blends into the path', () => {
  it('keeps the first steered day and the day after an episode ordinary', () => {
    const z: number[] = [];
    for (const r of resolved()) {
      const rets = logReturns(bars.get(r.symbol)!, false);
      const sd = Math.sqrt(variance(rets));
      for (const i of [at(r, r.trendStart), at(r, r.outcomeDate) + 9]) if (i - 1 < rets.length && i >= 1) z.push(Math.abs(rets[i - 1]!) / sd);
    }
    // A normal |z| averages 0.80; fat tails and GARCH move it a little either way.
    expect(mean(z)).toBeWithin(0.5, 1.1);
  });

  it('leaves returns inside patterns random-looking: quieter in bases, never frozen', () => {
    const ratios: number[] = [];
    for (const r of resolved()) {
      const rets = logReturns(bars.get(r.symbol)!, false);
      const inside = rets.slice(at(r, r.start), at(r, r.end));
      if (inside.length >= 10) ratios.push(Math.sqrt(variance(inside) / variance(rets)));
    }
    expect(median(ratios)).toBeWithin(0.35, 1.1);
    expect(Math.min(...ratios)).toBeGreaterThan(0.1);
  });
});
