import { describe, expect, it } from 'bun:test';
import { computeIndicators } from '../../../src/kernels/indicators';
import { donchian55 } from '../../../src/kernels/patterns/donchian-55';
import { BarBuilder, detectAt, expectNoLookAhead, mirror } from './builders';

// 60 quiet bars (highs 50.50, lows 49.50), then bar 60 closes at 51.00, above
// the prior 55-bar high, on 1.8M volume; bars 61–70 hold near 50.8 (highs 51.1–51.2).
const breakout = () => new BarBuilder().quiet(60, 50).bar(50.3, 51.2, 50.1, 51.0, 1_800_000).quiet(10, 50.8, 0.1);

describe('donchian 55 on hand-built bars', () => {
  it('goes long on a close above the prior 55-bar high; stop 2N, target 4N (N = ATR 14)', () => {
    const bars = breakout().build();
    const n = computeIndicators(bars).atr14[60]!;
    const match = detectAt(donchian55, bars, 60)!;
    expect(donchian55.direction).toBe('either');
    expect(match.direction).toBe('long');
    expect(match.pivot).toBeCloseTo(50.5, 10);
    expect(n).toBeGreaterThan(1); // true ranges of 1.0 and the breakout's 1.5
    expect(n).toBeLessThan(1.1);
    expect(match.stopLoss).toBeCloseTo(50.5 - 2 * n, 10);
    expect(match.target1).toBeCloseTo(50.5 + 4 * n, 10);
    expect(match.geometry).toEqual({ start: 5, end: 59, depthPct: expect.closeTo(100 / 50.5, 8), lengthBars: 55, contractions: 0 });
    expect(match.breakout).toEqual({ triggered: true, barIndex: 60, volumeRatio: 1.8 });
    expect(match.reasons[0]).toBe('close 51.00 above the prior 55-bar high 50.50, a fresh System 2 entry');
  });

  it('reports the event for 5 bars', () => {
    const bars = breakout().build();
    for (const asOf of [61, 62, 63, 64]) expect(detectAt(donchian55, bars, asOf)?.breakout.barIndex).toBe(60);
    expect(detectAt(donchian55, bars, 65)).toBeNull();
  });

  it('goes short on a close below the prior 55-bar low', () => {
    const bars = mirror(breakout().build(), 100);
    const n = computeIndicators(bars).atr14[60]!;
    const match = detectAt(donchian55, bars, 60)!;
    expect(match.direction).toBe('short');
    expect(match.pivot).toBeCloseTo(49.5, 10);
    expect(match.stopLoss).toBeCloseTo(49.5 + 2 * n, 10);
    expect(match.target1).toBeCloseTo(49.5 - 4 * n, 10);
  });

  it('does not re-enter on a second break while System 2 is still long', () => {
    const bars = breakout().bar(50.8, 51.8, 50.7, 51.6).build(); // bar 71 clears the new 51.20 channel high
    expect(detectAt(donchian55, bars, 71)).toBeNull();
  });

  it('re-enters after a close through the 20-bar low (the System 2 exit)', () => {
    const bars = breakout().bar(50.7, 50.8, 48.8, 49.0).quiet(4, 49.6, 0.2).bar(49.8, 52.0, 49.7, 51.8, 2_000_000).build();
    const match = detectAt(donchian55, bars, 76)!;
    expect(match.direction).toBe('long');
    expect(match.breakout.barIndex).toBe(76);
    expect(match.pivot).toBeCloseTo(51.2, 10);
  });

  it('reports the side that broke last', () => {
    const bars = new BarBuilder().quiet(60, 50).bar(50.3, 51.2, 50.1, 51.0).bar(51.0, 51.1, 48.8, 49.0).build();
    expect(detectAt(donchian55, bars, 60)?.direction).toBe('long');
    expect(detectAt(donchian55, bars, 61)?.direction).toBe('short');
  });

  it('never reads past asOf', () => {
    const bars = breakout().bar(50.7, 50.8, 48.8, 49.0).quiet(4, 49.6, 0.2).bar(49.8, 52.0, 49.7, 51.8, 2_000_000).build();
    for (let asOf = 50; asOf < bars.close.length; asOf++) expectNoLookAhead(donchian55, bars, asOf);
  });
});
