import { describe, expect, it } from 'bun:test';
import { bullFlag } from '../../../src/kernels/patterns/bull-flag';
import { bullFlagBars, detectAt, detectOn, expectNoLookAhead, history } from './builders';
import { DIEPERDEV } from './real-data';

// The textbook flag of bullFlagBars(): pole from the 49.00 low (bar 60) to the
// 60.00 top (bar 68); flag bars 68–74 with highs 60 − 0.25x and lows
// 58.30 − 0.25x, so the least-squares line through the midpoints is exactly
// 59.15 − 0.25x and the channel is ±0.85 around it.
const textbook = () => bullFlagBars().bar(57.6, 59.0, 57.4, 58.8, 3_000_000).ramp(6, 62, { volume: 1_500_000 });

describe('bull flag on hand-built bars', () => {
  it('measures the forming flag: pivot on the upper channel line, target = pivot + pole, stop = flag low', () => {
    const match = detectAt(bullFlag, textbook().build(), 74)!;
    expect(match.patternType).toBe('bull_flag');
    expect(match.direction).toBe('long');
    expect(match.pivot).toBeCloseTo(60 - 0.25 * 7, 10); // upper line at x = 7 (bar 75)
    expect(match.target1).toBeCloseTo(58.25 + (60 - 49), 10); // pole 11.00
    expect(match.stopLoss).toBeCloseTo(58.3 - 0.25 * 6, 10); // flag low, bar 74
    expect(match.geometry).toEqual({ start: 68, end: 74, depthPct: expect.closeTo((100 * 3.2) / 60, 10), lengthBars: 7, contractions: 0 });
    expect(match.breakout).toEqual({ triggered: false, barIndex: null, volumeRatio: null });
    expect(match.reasons[0]).toBe('pole +22.4% in 8 bars (49.00 → 60.00)');
    expect(match.reasons[1]).toBe('flag 7 bars, 5.3% deep, sloping −0.4%/bar');
    expect(match.quality).toBeGreaterThan(0.5);
  });

  it('triggers on the close above the upper line, with the breakout volume against the 50-bar average', () => {
    const match = detectAt(bullFlag, textbook().build(), 75)!;
    expect(match.pivot).toBeCloseTo(58.25, 10);
    expect(match.geometry.end).toBe(74);
    // avgVolume50 at bar 74 = (36 × 1M + 8 × 2M + 6 × 0.8M) / 50 over bars 25–74
    expect(match.breakout).toEqual({ triggered: true, barIndex: 75, volumeRatio: expect.closeTo(3e6 / 1.136e6, 10) });
    expect(match.reasons[4]).toBe('closed above the upper flag line 58.25 on volume 2.6× the 50-bar average');
  });

  it('keeps reporting the breakout for 5 bars, then lets it go', () => {
    const bars = textbook().build();
    for (const asOf of [76, 77, 78, 79]) expect(detectAt(bullFlag, bars, asOf)?.breakout.barIndex).toBe(75);
    expect(detectAt(bullFlag, bars, 80)).toBeNull();
  });

  it('needs a flag of at least 4 bars', () => {
    expect(detectAt(bullFlag, textbook().build(), 70)).toBeNull(); // bars 68–70
    expect(detectAt(bullFlag, textbook().build(), 71)?.geometry.lengthBars).toBe(4);
  });

  it('does not fire on a pole under 15%', () => {
    expect(detectAt(bullFlag, bullFlagBars({ poleTop: 55 }).build(), 74)).toBeNull(); // 49 → 55 is +12.2%
  });

  it('does not fire on a flag longer than 3 weeks', () => {
    const bars = bullFlagBars({ flagBars: 17, step: 0.1 }).build();
    expect(detectAt(bullFlag, bars, 82)?.geometry.lengthBars).toBe(15);
    expect(detectAt(bullFlag, bars, 84)).toBeNull();
  });

  it('does not fire when the flag gives back more than half the pole', () => {
    // lows fall 1.00 a bar: 60 − (58.3 − 6) = 7.7 of an 11.0 pole
    expect(detectAt(bullFlag, bullFlagBars({ step: 1 }).build(), 74)).toBeNull();
  });

  it('does not fire on a channel that keeps climbing with the pole', () => {
    expect(detectAt(bullFlag, bullFlagBars({ step: -0.25 }).build(), 74)).toBeNull();
  });

  it('never reads past asOf', () => {
    const bars = textbook().build();
    for (let asOf = 60; asOf < bars.close.length; asOf++) expectNoLookAhead(bullFlag, bars, asOf);
  });
});

describe('bull flag on real daily history', () => {
  // NVDA, May–June 2023: the AI-guidance gap lifted the stock from the 280.46
  // low of 2023-05-12 to the 419.38 high of 2023-05-30 (+49.5% in 11 bars); it
  // then drifted down for two weeks in a channel (low 373.56 on 2023-06-07)
  // and closed out of it at 410.22 on 2023-06-13.
  it('NVDA breaks out of its flag on 2023-06-13', async () => {
    const nvda = await history(DIEPERDEV, 'NVDA');
    const match = detectOn(bullFlag, nvda, '2023-06-13')!;
    const { high, low, close } = nvda.bars;
    expect(match.breakout.triggered).toBe(true);
    expect(match.breakout.barIndex).toBe(nvda.at('2023-06-13'));
    expect(match.geometry.start).toBe(nvda.at('2023-05-30'));
    expect(match.geometry.end).toBe(nvda.at('2023-06-12'));
    expect(match.geometry.lengthBars).toBe(10);
    // the upper channel line, extended to the breakout bar, lies inside the flag and under that bar's close
    expect(match.pivot).toBeLessThan(high[nvda.at('2023-05-30')]!);
    expect(match.pivot).toBeLessThan(close[nvda.at('2023-06-13')]!);
    expect(match.stopLoss).toBe(low[nvda.at('2023-06-07')]!);
    expect(match.target1).toBeCloseTo(match.pivot + high[nvda.at('2023-05-30')]! - low[nvda.at('2023-05-12')]!, 8);
    expect(match.reasons[0]).toBe('pole +49.5% in 11 bars (280.46 → 419.38)');
    for (const day of ['2023-06-09', '2023-06-12', '2023-06-13', '2023-06-14']) expectNoLookAhead(bullFlag, nvda.bars, nvda.at(day));
  });

  it('NVDA: the 2023-06-13 breakout is no longer reported six bars later', async () => {
    const nvda = await history(DIEPERDEV, 'NVDA');
    expect(detectOn(bullFlag, nvda, '2023-06-21')?.breakout.barIndex ?? null).not.toBe(nvda.at('2023-06-13'));
  });

  // A consumer staple that never rose 15% in three weeks during 2023.
  it('KO makes no bull flag in 2023', async () => {
    const ko = await history(DIEPERDEV, 'KO');
    for (let i = ko.at('2023-01-03'); i <= ko.at('2023-12-29'); i++) expect(bullFlag.detect({ bars: ko.bars, ind: ko.ind, asOf: i })).toBeNull();
  });
});
