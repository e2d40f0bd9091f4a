import { describe, expect, it } from 'bun:test';
import { ascendingTriangle } from '../../../src/kernels/patterns/ascending-triangle';
import { ascendingTriangleBars, detectAt, detectOn, expectNoLookAhead, history } from './builders';
import { DIEPERDEV } from './real-data';

// ascendingTriangleBars(): touches of 50.00, 49.90, 50.00 (bars 64, 72, 78),
// minor lows 45.00, 46.70, 47.70 (bars 68, 75, 81), each confirmed by three
// bars either side, and bar 84 climbing back to 49.60.
const breakout = () => ascendingTriangleBars().bar(49.4, 50.8, 49.2, 50.6, 2_500_000);

describe('ascending triangle on hand-built bars', () => {
  it('measures the flat top, the rising lows and the height', () => {
    const match = detectAt(ascendingTriangle, ascendingTriangleBars().build(), 84)!;
    expect(match.patternType).toBe('ascending_triangle');
    expect(match.pivot).toBeCloseTo(50, 10); // the highest touch
    expect(match.target1).toBeCloseTo(55, 10); // + height 50.00 − 45.00
    expect(match.stopLoss).toBeCloseTo(47.7, 10); // the last higher low
    expect(match.geometry).toEqual({ start: 64, end: 84, depthPct: expect.closeTo(10, 8), lengthBars: 21, contractions: 3 });
    expect(match.breakout.triggered).toBe(false);
    expect(match.reasons.slice(0, 3)).toEqual([
      '3 touches of 50.00 resistance (spread 0.10)',
      '3 rising lows, 45.00 → 47.70 (+6.0%)',
      'triangle 21 bars, 10.0% tall',
    ]);
  });

  it('triggers on the close above the flat top', () => {
    const match = detectAt(ascendingTriangle, breakout().build(), 85)!;
    expect(match.breakout).toEqual({ triggered: true, barIndex: 85, volumeRatio: 2.5 });
    expect(match.geometry.end).toBe(84);
    expect(match.pivot).toBeCloseTo(50, 10);
  });

  it('does not fire on a flat bottom (a rectangle)', () => {
    expect(detectAt(ascendingTriangle, ascendingTriangleBars([45.2, 45.3, 45.2]).build(), 84)).toBeNull();
  });

  it('does not fire on falling lows', () => {
    expect(detectAt(ascendingTriangle, ascendingTriangleBars([47.9, 46.9, 45.2]).build(), 84)).toBeNull();
  });

  it('is gone once a close undercuts the last higher low', () => {
    const bars = ascendingTriangleBars().bar(49.4, 49.5, 46.8, 47.0).build();
    expect(detectAt(ascendingTriangle, bars, 84)).not.toBeNull();
    expect(detectAt(ascendingTriangle, bars, 85)).toBeNull();
  });

  it('never reads past asOf', () => {
    const bars = breakout().ramp(6, 53).build();
    for (let asOf = 60; asOf < bars.close.length; asOf++) expectNoLookAhead(ascendingTriangle, bars, asOf);
  });
});

describe('ascending triangle on real daily history', () => {
  // AMZN, July–August 2020: after the 167.21 spike of 2020-07-13, three
  // touches of ~162 (162.03 on 07-21, 162.34 on 07-31, 162.37 on 08-06) over
  // rising lows (144.40 on 07-24, 153.65 on 08-11); 2020-08-18 closed at
  // 165.62, above the top.
  it('AMZN breaks out on 2020-08-18', async () => {
    const amzn = await history(DIEPERDEV, 'AMZN');
    const match = detectOn(ascendingTriangle, amzn, '2020-08-18')!;
    const { high, low } = amzn.bars;
    expect(match.breakout.barIndex).toBe(amzn.at('2020-08-18'));
    expect(match.pivot).toBe(high[amzn.at('2020-08-06')]!);
    expect(match.stopLoss).toBe(low[amzn.at('2020-08-11')]!);
    expect(match.target1).toBeCloseTo(2 * match.pivot - low[amzn.at('2020-07-24')]!, 8);
    expect(match.geometry.start).toBe(amzn.at('2020-07-21'));
    expect(match.geometry.contractions).toBe(3);
    for (const day of ['2020-08-14', '2020-08-17', '2020-08-18', '2020-08-19']) expectNoLookAhead(ascendingTriangle, amzn.bars, amzn.at(day));
  });

  // C, January–March 2021: 69.43 on 2021-01-14, a V down to 57.40 and back to
  // 69.99 on 2021-03-01, broken on 2021-03-03. Both lows sit between the same
  // two touches — a cup, not a triangle: price never swung from the top to a
  // higher low and back.
  it('C: the V of early 2021 is not an ascending triangle', async () => {
    const c = await history(DIEPERDEV, 'C');
    expect(detectOn(ascendingTriangle, c, '2021-03-03')).toBeNull();
  });
});
