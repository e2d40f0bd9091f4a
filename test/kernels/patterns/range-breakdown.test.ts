import { describe, expect, it } from 'bun:test';
import { rangeBreakdown } from '../../../src/kernels/patterns/range-breakdown';
import { detectAt, detectOn, expectNoLookAhead, history, mirror, rangeBars } from './builders';
import { DIEPERDEV } from './real-data';

// rangeBars() reflected about 100: the 48.00–52.00 box maps onto itself, now
// with seven visits to the bottom quarter; breakout levels map to 100 − level.
const box = () => mirror(rangeBars().build(), 100);
const withBar = (volume: number) => mirror(rangeBars().bar(51.5, 53.0, 51.3, 52.8, volume).build(), 100);

describe('range breakdown on hand-built bars', () => {
  it('measures the box: pivot = bottom, target = bottom − height, stop = midpoint', () => {
    const match = detectAt(rangeBreakdown, box(), 101)!;
    expect(match.direction).toBe('short');
    expect(match.pivot).toBeCloseTo(48, 10);
    expect(match.target1).toBeCloseTo(44, 10);
    expect(match.stopLoss).toBeCloseTo(50, 10);
    expect(match.geometry).toEqual({ start: 63, end: 101, depthPct: expect.closeTo((100 * 4) / 52, 8), lengthBars: 39, contractions: 7 });
  });

  it('triggers on a close below the bottom on 3× volume', () => {
    const match = detectAt(rangeBreakdown, withBar(3_000_000), 102)!;
    expect(match.breakout).toEqual({ triggered: true, barIndex: 102, volumeRatio: 3 });
    expect(match.reasons[3]).toBe('closed below the 48.00 bottom on volume 3.0× the 50-bar average');
  });

  it('does not count a close below the bottom on thin volume', () => {
    const match = detectAt(rangeBreakdown, withBar(1_200_000), 102)!;
    expect(match.breakout.triggered).toBe(false);
    expect(match.pivot).toBeCloseTo(47, 10);
  });

  it('never reads past asOf', () => {
    const bars = withBar(3_000_000);
    for (let asOf = 80; asOf < bars.close.length; asOf++) expectNoLookAhead(rangeBreakdown, bars, asOf);
  });
});

describe('range breakdown on real daily history', () => {
  // NKE, December 2020 – March 2021: 63 bars between 129.19 (low of
  // 2021-03-05) and 147.10; the 2021-03-25 close of 128.64, after earnings,
  // broke the floor on 3.0× volume.
  it('NKE breaks down on 2021-03-25', async () => {
    const nke = await history(DIEPERDEV, 'NKE');
    const match = detectOn(rangeBreakdown, nke, '2021-03-25')!;
    const { start, end } = match.geometry;
    const top = Math.max(...nke.bars.high.subarray(start, end + 1));
    const bottom = nke.bars.low[nke.at('2021-03-05')]!;
    expect(match.breakout.barIndex).toBe(nke.at('2021-03-25'));
    expect(match.breakout.volumeRatio).toBeGreaterThan(2.9);
    expect(match.pivot).toBe(bottom);
    expect(top).toBeCloseTo(147.1, 2);
    expect(match.target1).toBeCloseTo(2 * bottom - top, 8);
    expect(match.stopLoss).toBeCloseTo((top + bottom) / 2, 8);
    expect(start).toBe(nke.at('2020-12-22'));
    for (const day of ['2021-03-24', '2021-03-25', '2021-03-26']) expectNoLookAhead(rangeBreakdown, nke.bars, nke.at(day));
  });

  // WMT, 2023-03-09: closed at 45.72, under the 45.76 floor, on 0.91× volume —
  // the floor moves to that day's low instead.
  it('WMT: a thin-volume slip under the range on 2023-03-09 is not a breakdown', async () => {
    const wmt = await history(DIEPERDEV, 'WMT');
    expect(detectOn(rangeBreakdown, wmt, '2023-03-08')!.pivot).toBeCloseTo(45.76, 2);
    const match = detectOn(rangeBreakdown, wmt, '2023-03-09')!;
    expect(match.breakout.triggered).toBe(false);
    expect(match.pivot).toBe(wmt.bars.low[wmt.at('2023-03-09')]!);
  });
});
