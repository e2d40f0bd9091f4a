import { describe, expect, it } from 'bun:test';
import { rangeBreakout } from '../../../src/kernels/patterns/range-breakout';
import { BarBuilder, detectAt, detectOn, expectNoLookAhead, history, rangeBars } from './builders';
import { DIEPERDEV } from './real-data';

// rangeBars(): bars 63–101 between the 48.00 low and the 52.00 high, the top
// quarter (≥ 51.00) visited 7 times, all on 1M volume.
describe('range breakout on hand-built bars', () => {
  it('measures the box: pivot = top, target = top + height, stop = midpoint', () => {
    const match = detectAt(rangeBreakout, rangeBars().build(), 101)!;
    expect(match.patternType).toBe('range_breakout');
    expect(match.patternFamily).toBe('range');
    expect(match.pivot).toBeCloseTo(52, 10);
    expect(match.target1).toBeCloseTo(56, 10);
    expect(match.stopLoss).toBeCloseTo(50, 10);
    expect(match.geometry).toEqual({ start: 63, end: 101, depthPct: expect.closeTo((100 * 4) / 52, 8), lengthBars: 39, contractions: 7 });
    expect(match.breakout.triggered).toBe(false);
    expect(match.reasons[0]).toStartWith('range 39 bars between 48.00 and 52.00, 7.7% (');
  });

  it('triggers on a close above the top on 3× volume', () => {
    const match = detectAt(rangeBreakout, rangeBars().bar(51.5, 53.0, 51.3, 52.8, 3_000_000).build(), 102)!;
    expect(match.breakout).toEqual({ triggered: true, barIndex: 102, volumeRatio: 3 });
    expect(match.geometry.end).toBe(101);
    expect(match.reasons[3]).toBe('closed above the 52.00 top on volume 3.0× the 50-bar average');
  });

  it('does not count a close above the top on thin volume: the box widens instead', () => {
    const match = detectAt(rangeBreakout, rangeBars().bar(51.5, 53.0, 51.3, 52.8, 1_200_000).build(), 102)!;
    expect(match.breakout.triggered).toBe(false);
    expect(match.pivot).toBe(53);
  });

  it('does not fire on a slow climbing channel', () => {
    // rejected twice over: its closes drift more than half its width, and price crosses from the bottom quarter to the top only once
    const closes = Array.from({ length: 40 }, (_, k) => 48 + 0.12 * k + (k % 2 ? 0.6 : -0.6));
    const bars = new BarBuilder().quiet(60, 30).ramp(3, 48.2).closes(closes).build();
    expect(detectAt(rangeBreakout, bars, bars.close.length - 1)).toBeNull();
  });

  it('does not fire on a slow wave ten points wide', () => {
    const closes = Array.from({ length: 80 }, (_, k) => 50 + 5 * Math.sin((2 * Math.PI * k) / 40));
    const bars = new BarBuilder().quiet(60, 50).closes(closes).build();
    for (let asOf = 80; asOf < bars.close.length; asOf++) expect(detectAt(rangeBreakout, bars, asOf)).toBeNull();
  });

  it('never reads past asOf', () => {
    const bars = rangeBars().bar(51.5, 53.0, 51.3, 52.8, 3_000_000).ramp(6, 55).build();
    for (let asOf = 80; asOf < bars.close.length; asOf++) expectNoLookAhead(rangeBreakout, bars, asOf);
  });
});

describe('range breakout on real daily history', () => {
  // GOOGL, November 2020 – January 2021: 51 bars between the 84.70 low of
  // 2020-12-21 and the 92.19 high of 2020-12-03; 2021-01-20 closed at 94.00
  // on 2.2× its 50-day volume.
  it('GOOGL breaks out on 2021-01-20', async () => {
    const googl = await history(DIEPERDEV, 'GOOGL');
    const match = detectOn(rangeBreakout, googl, '2021-01-20')!;
    const top = googl.bars.high[googl.at('2020-12-03')]!;
    const bottom = googl.bars.low[googl.at('2020-12-21')]!;
    expect(match.breakout.barIndex).toBe(googl.at('2021-01-20'));
    expect(match.breakout.volumeRatio).toBeGreaterThan(2);
    expect(match.pivot).toBe(top);
    expect(match.target1).toBeCloseTo(2 * top - bottom, 8);
    expect(match.stopLoss).toBeCloseTo((top + bottom) / 2, 8);
    expect(match.geometry.start).toBe(googl.at('2020-11-04'));
    expect(match.geometry.lengthBars).toBe(51);
    for (const day of ['2021-01-19', '2021-01-20', '2021-01-21']) expectNoLookAhead(rangeBreakout, googl.bars, googl.at(day));
  });

  // JPM, 2023-01-11: closed at 139.63, above the 138.88 top of its range, on
  // 0.85× its 50-day volume — not a breakout; the range stretches to that
  // day's 139.75 high.
  it('JPM: a thin-volume poke above the range on 2023-01-11 is not a breakout', async () => {
    const jpm = await history(DIEPERDEV, 'JPM');
    expect(detectOn(rangeBreakout, jpm, '2023-01-10')!.pivot).toBeCloseTo(138.88, 2);
    const match = detectOn(rangeBreakout, jpm, '2023-01-11')!;
    expect(match.breakout.triggered).toBe(false);
    expect(match.pivot).toBe(jpm.bars.high[jpm.at('2023-01-11')]!);
  });
});
