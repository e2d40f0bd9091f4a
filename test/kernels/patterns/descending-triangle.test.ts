import { describe, expect, it } from 'bun:test';
import { descendingTriangle } from '../../../src/kernels/patterns/descending-triangle';
import { ascendingTriangleBars, detectAt, detectOn, expectNoLookAhead, history, mirror } from './builders';
import { DIEPERDEV } from './real-data';

// ascendingTriangleBars() reflected about 100: support touched at 50.00,
// 50.10, 50.00 (bars 64, 72, 78) under falling highs 55.00, 53.30, 52.30
// (bars 68, 75, 81); every ascending level maps to 100 − level.
const triangle = (troughs?: [number, number, number]) => mirror(ascendingTriangleBars(troughs).build(), 100);
const breakdown = () => mirror(ascendingTriangleBars().bar(49.4, 50.8, 49.2, 50.6, 2_500_000).build(), 100);

describe('descending triangle on hand-built bars', () => {
  it('measures the flat bottom, the falling highs and the height', () => {
    const match = detectAt(descendingTriangle, triangle(), 84)!;
    expect(match.direction).toBe('short');
    expect(match.pivot).toBeCloseTo(50, 10);
    expect(match.target1).toBeCloseTo(45, 10);
    expect(match.stopLoss).toBeCloseTo(52.3, 10); // the last lower high
    expect(match.geometry).toEqual({ start: 64, end: 84, depthPct: expect.closeTo((100 * 5) / 55, 8), lengthBars: 21, contractions: 3 });
    expect(match.reasons.slice(0, 2)).toEqual(['3 touches of 50.00 support (spread 0.10)', '3 falling highs, 55.00 → 52.30 (−4.9%)']);
  });

  it('triggers on the close below the flat bottom', () => {
    const match = detectAt(descendingTriangle, breakdown(), 85)!;
    expect(match.breakout).toEqual({ triggered: true, barIndex: 85, volumeRatio: 2.5 });
  });

  it('does not fire on a flat top (a rectangle) or on rising highs', () => {
    expect(detectAt(descendingTriangle, triangle([45.2, 45.3, 45.2]), 84)).toBeNull();
    expect(detectAt(descendingTriangle, triangle([47.9, 46.9, 45.2]), 84)).toBeNull();
  });

  it('never reads past asOf', () => {
    const bars = breakdown();
    for (let asOf = 60; asOf < bars.close.length; asOf++) expectNoLookAhead(descendingTriangle, bars, asOf);
  });
});

describe('descending triangle on real daily history', () => {
  // DIS, August 2018: support near 111.5 (111.68 on 08-02, 111.47 on 08-15,
  // 111.44 on 08-24) under falling highs (117.90 on 08-07, then 113.19 and
  // 112.89 on 08-27); 2018-09-04 closed at 110.85, below support.
  it('DIS breaks down on 2018-09-04', async () => {
    const dis = await history(DIEPERDEV, 'DIS');
    const match = detectOn(descendingTriangle, dis, '2018-09-04')!;
    const { high, low } = dis.bars;
    expect(match.breakout.barIndex).toBe(dis.at('2018-09-04'));
    expect(match.pivot).toBe(low[dis.at('2018-08-24')]!);
    expect(match.stopLoss).toBe(high[dis.at('2018-08-27')]!);
    expect(match.target1).toBeCloseTo(2 * match.pivot - high[dis.at('2018-08-07')]!, 8);
    expect(match.geometry.start).toBe(dis.at('2018-08-02'));
    expect(match.geometry.contractions).toBe(3);
    for (const day of ['2018-08-31', '2018-09-04', '2018-09-05']) expectNoLookAhead(descendingTriangle, dis.bars, dis.at(day));
  });

  it('DIS: the day before, the same triangle is still forming', async () => {
    const dis = await history(DIEPERDEV, 'DIS');
    const match = detectOn(descendingTriangle, dis, '2018-08-31')!;
    expect(match.breakout.triggered).toBe(false);
    expect(match.pivot).toBe(dis.bars.low[dis.at('2018-08-24')]!);
  });
});
