/**
 * `flat_base` against hand-built bars (expected numbers worked out from the
 * builder's arithmetic below) and against real daily history (the committed dieperdev
 * excerpts in test/fixtures; the marketlab cases and the firing rate are in
 * test/real/kernels/patterns) (expected numbers read off the bars themselves; the dates were found by
 * running the detector over both folders and then checked bar by bar against
 * O'Neil's definition, as each case's comment says).
 */
import { describe, expect, it } from 'bun:test';
import { computeIndicators, type Ohlcv } from '../../../src/kernels/indicators';
import { flatBase, flatBaseDetector } from '../../../src/kernels/patterns/flat-base';
import type { PatternDetector } from '../../../src/kernels/patterns/types';
import { barsFromCloses, history, straightLegs } from './builders';
import { DIEPERDEV, expectNoLookAheadOn, expectNoMatchBetween, matchOn } from './real-data';

// ---- hand-built bars ------------------------------------------------------

/** Volume multiples by bar (1 elsewhere): the later of two entries for one bar wins, as in an object literal. */
const volumeMultiples = (multiples: Record<number, number>) => (i: number) => multiples[i] ?? 1;

const detectAt = (bars: Ohlcv, asOf: number, detector: PatternDetector = flatBase) => detector.detect({ bars, ind: computeIndicators(bars), asOf });

// 25 flat bars at 60, a 110-bar advance to 100 (bar 135), then the base:
// down to 90 (bar 145), up to 98 (bar 160), 95 (bar 166), 97 (bar 172); bar 173
// closes at 102 on twice the volume.
const PEAK = 135, BOTTOM = 145, END = 172, BREAKOUT = 173;
const textbook = (base: [number, number][] = [[90, 10], [98, 15], [95, 6], [97, 6]], prior: [number, number][] = [[60, 25], [100, 110]]) =>
  straightLegs(60, ...prior, ...base);
const withBreakout = (closes: number[]) => barsFromCloses([...closes, 102, 103, 104, 105, 106, 107, 108], volumeMultiples({ [closes.length]: 2 }));

describe('flat base on hand-built bars', () => {
  const bars = withBreakout(textbook());

  it('finds the textbook base with its pivot, stop, target and geometry the day before the breakout', () => {
    const m = detectAt(bars, END)!;
    const pivot = 100 * 1.005; // the peak bar's high
    const baseLow = 90 * 0.995; // bar 145 opens at 91 and closes at 90
    expect(m).not.toBeNull();
    expect(m.patternType).toBe('flat_base');
    expect(m.patternFamily).toBe('base');
    expect(m.direction).toBe('long');
    expect(m.pivot).toBeCloseTo(pivot, 10);
    expect(m.geometry).toEqual({ start: PEAK, end: END, depthPct: expect.any(Number), lengthBars: END - PEAK + 1, contractions: 0 });
    expect(bars.low[BOTTOM]).toBeCloseTo(baseLow, 10);
    expect(m.geometry.depthPct).toBeCloseTo((100 * (pivot - baseLow)) / pivot, 10);
    // stop: the lowest low of the last 2 weeks (bar 166 closes at 95: low 94.525), above pivot − 8%
    expect(m.stopLoss).toBeCloseTo(95 * 0.995, 10);
    expect(m.target1).toBeCloseTo(pivot + (pivot - baseLow), 10);
    expect(m.breakout).toEqual({ triggered: false, barIndex: null, volumeRatio: null });
    expect(m.quality).toBeGreaterThan(0.5);
    expect(m.quality).toBeLessThanOrEqual(1);
    expect(m.reasons[0]).toBe('base depth 10.9% over 8 weeks (38 bars)');
    expect(m.reasons[1]).toBe('prior advance 68.3% into the base (59.70 → 100.50)');
  });

  it('triggers on the breakout day with that bar’s volume ratio, and keeps reporting it for recentBars', () => {
    const m = detectAt(bars, BREAKOUT)!;
    expect(m.breakout).toEqual({ triggered: true, barIndex: BREAKOUT, volumeRatio: 2 });
    expect(m.geometry.end).toBe(END);
    expect(m.reasons).toContain('closed above the pivot 100.50 on volume 2.0× the 50-day average');
    expect(detectAt(bars, BREAKOUT + 4)!.breakout.barIndex).toBe(BREAKOUT);
    expect(detectAt(bars, BREAKOUT + 5)).toBeNull(); // a week on, the stock is extended: no base at its new highs
  });

  it('does not fire on a correction deeper than 15%', () => {
    const deep = withBreakout(textbook([[82, 10], [98, 15], [95, 6], [97, 6]]));
    expect(detectAt(deep, END)).toBeNull();
    expect(detectAt(deep, BREAKOUT)).toBeNull();
  });

  it('does not fire on a base shorter than five weeks', () => {
    const short = textbook([[90, 5], [98, 8], [95, 3], [97, 3]]);
    const bars2 = withBreakout(short);
    expect(detectAt(bars2, short.length - 1)).toBeNull();
    expect(detectAt(bars2, short.length)).toBeNull();
  });

  it('does not fire without a prior advance of 20%', () => {
    const flat = withBreakout(straightLegs(90, [90, 25], [100, 110], [90, 10], [98, 15], [95, 6], [97, 6])); // a 12% rise into the base
    expect(detectAt(flat, END)).toBeNull();
    expect(detectAt(flat, BREAKOUT)).toBeNull();
  });

  it('does not start a base in the middle of a deeper decline', () => {
    // down 25% from 100 to 75, then a 15%-wide range: the range's first bar is no peak
    const closes = straightLegs(60, [60, 25], [100, 110], [90, 10], [78, 10], [75, 5], [84, 15], [80, 6], [83, 6]);
    const decline = withBreakout(closes);
    for (let asOf = closes.length - 6; asOf <= closes.length; asOf++) expect(detectAt(decline, asOf)).toBeNull();
  });

  it('does not fire on a range inside a bear market, 32% under the 52-week high', () => {
    // 140 for 90 bars, a slide to 70, a 36% bounce to 95, then the same kind of range
    const closes = straightLegs(140, [140, 90], [70, 100], [95, 30], [86, 10], [93, 15], [91, 6], [92, 6]);
    const bear = withBreakout(closes);
    expect(detectAt(bear, closes.length - 1)).toBeNull();
    // it is the 52-week-high rule that rejects it
    expect(detectAt(bear, closes.length - 1, flatBaseDetector({ maxBelowYearHighPct: 100 }))).not.toBeNull();
  });

  it('rejects an asOf outside the bars and returns null before its lookback', () => {
    expect(() => detectAt(bars, bars.close.length)).toThrow(RangeError);
    expect(() => detectAt(bars, -1)).toThrow(RangeError);
    expect(detectAt(bars, flatBase.lookback - 2)).toBeNull();
    expect(() => flatBaseDetector({ minBars: 30, maxBars: 20 })).toThrow(RangeError);
  });
});

describe('flat base without look-ahead', () => {
  const closes = textbook();
  const bars = withBreakout(closes);

  it('gives the same answer whatever the bars after asOf are', () => {
    for (const asOf of [END - 3, END, BREAKOUT, BREAKOUT + 2]) {
      const expected = detectAt(bars, asOf);
      // cut after asOf, and replace everything after asOf with a crash on huge volume
      const cut = barsFromCloses(closes.concat([102, 103, 104, 105, 106, 107, 108]).slice(0, asOf + 1), volumeMultiples({ [BREAKOUT]: 2 }));
      const crashed = barsFromCloses([...closes, 102, 103, 104, 105, 106, 107, 108].map((c, i) => (i > asOf ? c * 0.3 : c)), volumeMultiples({ [BREAKOUT]: 2, [asOf + 1]: 50 }));
      expect(detectAt(cut, asOf)).toEqual(expected);
      expect(detectAt(crashed, asOf)).toEqual(expected);
    }
    expect(detectAt(bars, END)).not.toBeNull();
    expect(detectAt(bars, BREAKOUT)!.breakout.triggered).toBe(true);
  });
});

// ---- real history ---------------------------------------------------------

describe('flat base on real daily history', () => {
  // NVDA (daily_yf_dieperdev, split-adjusted, pre-2024-split prices): after its
  // 2023 AI run (298 in May → 505.48 on 2023-11-20) it went sideways for six
  // weeks, at worst 450.10 on 2023-12-04 (11.0% off the high), then closed at
  // 522.53 on 2024-01-08 on 64.3M shares: a flat base as O'Neil draws one.
  it('NVDA broke out of a 6-week, 11.0% flat base on 2024-01-08 over 505.48', async () => {
    const { match, dates, bars, at } = await matchOn(flatBase, DIEPERDEV, 'NVDA', '2024-01-08');
    expect(dates).toEqual({ start: '2023-11-20', end: '2024-01-05', breakout: '2024-01-08' });
    expect(match!.pivot).toBeCloseTo(505.48, 2);
    expect(match!.geometry.depthPct).toBeCloseTo((100 * (505.48 - 450.1)) / 505.48, 2);
    expect(match!.geometry.lengthBars).toBe(32);
    expect(match!.stopLoss).toBeCloseTo(473.2, 2); // the 2024-01-03 low, the lowest of the base's last two weeks
    expect(match!.target1).toBeCloseTo(505.48 + (505.48 - 450.1), 2);
    expect(match!.breakout.volumeRatio!).toBeCloseTo(1.58, 2);
    expect(bars.close[at('2024-01-08')]).toBeCloseTo(522.53, 2);
    const before = await matchOn(flatBase, DIEPERDEV, 'NVDA', '2024-01-05');
    expect(before.match!.breakout.triggered).toBe(false);
    expect(before.match!.pivot).toBeCloseTo(505.48, 2);
  });

  // LLY (daily_yf_dieperdev): a tight five-week base under its 2023-06-30 high
  // of 469.87 (lowest low 434.34 on 2023-07-13, 7.6% down), broken by the
  // 2023-08-08 earnings gap to 521.60 on 15.1M shares, six times its average.
  it('LLY gapped out of a 5-week, 7.6% flat base on 2023-08-08 on 6× volume', async () => {
    const { match, dates } = await matchOn(flatBase, DIEPERDEV, 'LLY', '2023-08-08');
    expect(dates).toEqual({ start: '2023-06-30', end: '2023-08-07', breakout: '2023-08-08' });
    expect(match!.pivot).toBeCloseTo(469.87, 2);
    expect(match!.geometry.depthPct).toBeCloseTo(7.56, 2);
    expect(match!.breakout.volumeRatio!).toBeGreaterThan(5.9);
    expect(match!.reasons[0]).toBe('base depth 7.6% over 5 weeks (26 bars)');
  });

  // INTC fell from 53 to 28 between January and October 2022: every rally
  // failed below a falling high, so no base ever formed near a high.
  it('never fires while INTC falls through 2022', async () => {
    expectNoMatchBetween(flatBase, await history(DIEPERDEV, 'INTC'), '2022-01-03', '2022-10-31');
  });

  it('reads no bar after asOf on real data: NVDA cut at the breakout gives the same match', async () => {
    expectNoLookAheadOn(flatBase, await history(DIEPERDEV, 'NVDA'), ['2024-01-05', '2024-01-08', '2024-01-10']);
  });
});
