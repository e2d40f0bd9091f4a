import { describe, expect, it } from 'bun:test';
import { bearFlag } from '../../../src/kernels/patterns/bear-flag';
import { bullFlagBars, detectAt, detectOn, expectNoLookAhead, history, mirror } from './builders';
import { DIEPERDEV } from './real-data';

// bullFlagBars() reflected about 110: the pole falls from the 61.00 high
// (110 − 49) of bar 60 to the 50.00 low (110 − 60) of bar 68 (−18.0%), and
// the flag's lows (50 + 0.25x) and highs (51.70 + 0.25x) climb in parallel.
// Every bull-flag level maps to 110 − level.
const textbook = () => mirror(bullFlagBars().bar(57.6, 59.0, 57.4, 58.8, 3_000_000).ramp(6, 62, { volume: 1_500_000 }).build(), 110);

describe('bear flag on hand-built bars', () => {
  it('measures the forming flag: pivot on the lower channel line, target = pivot − pole, stop = flag high', () => {
    const match = detectAt(bearFlag, textbook(), 74)!;
    expect(match.patternType).toBe('bear_flag');
    expect(match.direction).toBe('short');
    expect(match.pivot).toBeCloseTo(110 - 58.25, 10);
    expect(match.target1).toBeCloseTo(110 - 69.25, 10); // pivot − the 11.00 pole
    expect(match.stopLoss).toBeCloseTo(110 - 56.8, 10);
    expect(match.geometry).toEqual({ start: 68, end: 74, depthPct: expect.closeTo((100 * 3.2) / 53.2, 10), lengthBars: 7, contractions: 0 });
    expect(match.breakout.triggered).toBe(false);
    expect(match.reasons[0]).toBe('pole −18.0% in 8 bars (61.00 → 50.00)');
    expect(match.reasons[1]).toBe('flag 7 bars, 6.0% deep, sloping +0.5%/bar');
  });

  it('triggers on the close below the lower line', () => {
    const match = detectAt(bearFlag, textbook(), 75)!;
    expect(match.breakout).toEqual({ triggered: true, barIndex: 75, volumeRatio: expect.closeTo(3e6 / 1.136e6, 10) });
    expect(match.reasons[4]).toBe('closed below the lower flag line 51.75 on volume 2.6× the 50-bar average');
  });

  it('does not fire on a drop under 15%', () => {
    // 110 − 55 = 55 from 61: −9.8%
    expect(detectAt(bearFlag, mirror(bullFlagBars({ poleTop: 55 }).build(), 110), 74)).toBeNull();
  });

  it('does not fire when the bounce retraces more than half the drop', () => {
    expect(detectAt(bearFlag, mirror(bullFlagBars({ step: 1 }).build(), 110), 74)).toBeNull();
  });

  it('does not fire when the measured move would take the price below zero', () => {
    // the same flag 40 lower: a 61 → 10 "pole" is a collapse, and pivot − pole < 0
    const bars = mirror(bullFlagBars().build(), 110);
    const shifted = { ...bars, open: bars.open.map((p, i) => (i >= 61 ? p - 40 : p)), high: bars.high.map((p, i) => (i >= 61 ? p - 40 : p)), low: bars.low.map((p, i) => (i >= 61 ? p - 40 : p)), close: bars.close.map((p, i) => (i >= 61 ? p - 40 : p)) };
    expect(detectAt(bearFlag, shifted, 74)).toBeNull();
  });

  it('never reads past asOf', () => {
    const bars = textbook();
    for (let asOf = 60; asOf < bars.close.length; asOf++) expectNoLookAhead(bearFlag, bars, asOf);
  });
});

describe('bear flag on real daily history', () => {
  // META, February 2022: the 2022-02-03 earnings gap took the stock from the
  // 328.00 high of 2022-02-02 to the 216.15 low of 2022-02-08 (−34.1% in 4
  // bars); it bounced for four bars (high 235.00 on 2022-02-10) and closed
  // below the flag at 217.70 on 2022-02-14.
  it('META breaks down out of its flag on 2022-02-14', async () => {
    const meta = await history(DIEPERDEV, 'META');
    const match = detectOn(bearFlag, meta, '2022-02-14')!;
    const { high, low, close } = meta.bars;
    expect(match.direction).toBe('short');
    expect(match.breakout.barIndex).toBe(meta.at('2022-02-14'));
    expect(match.geometry.start).toBe(meta.at('2022-02-08'));
    expect(match.geometry.end).toBe(meta.at('2022-02-11'));
    // the lower channel line, extended to the breakout bar, lies inside the flag and above that bar's close
    expect(match.pivot).toBeGreaterThan(low[meta.at('2022-02-08')]!);
    expect(match.pivot).toBeGreaterThan(close[meta.at('2022-02-14')]!);
    expect(match.stopLoss).toBe(high[meta.at('2022-02-10')]!);
    expect(match.target1).toBeCloseTo(match.pivot - (high[meta.at('2022-02-02')]! - low[meta.at('2022-02-08')]!), 8);
    expect(match.reasons[0]).toBe('pole −34.1% in 4 bars (328.00 → 216.15)');
    for (const day of ['2022-02-10', '2022-02-11', '2022-02-14', '2022-02-15']) expectNoLookAhead(bearFlag, meta.bars, meta.at(day));
  });

  it('KO makes no bear flag in 2023', async () => {
    const ko = await history(DIEPERDEV, 'KO');
    for (let i = ko.at('2023-01-03'); i <= ko.at('2023-12-29'); i++) expect(bearFlag.detect({ bars: ko.bars, ind: ko.ind, asOf: i })).toBeNull();
  });
});
