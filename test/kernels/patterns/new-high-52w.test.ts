import { describe, expect, it } from 'bun:test';
import { computeIndicators } from '../../../src/kernels/indicators';
import { newHigh52w } from '../../../src/kernels/patterns/new-high-52w';
import { BarBuilder, detectAt, detectOn, expectNoLookAhead, history } from './builders';
import { DIEPERDEV } from './real-data';

/**
 * A year's climb from 40 to the 60.20 high (bars 169–170), a pullback to 54
 * (low 53.80), a 60-bar base around 56, a climb to 59.80 (bar 277), then the
 * bar-278 close of `close` (high 61.20) on 2.5M volume.
 */
function base(close = 61): BarBuilder {
  return new BarBuilder().quiet(20, 40).ramp(150, 60).ramp(40, 54).quiet(60, 56, 0.5).ramp(8, 59.8).bar(59.8, 61.2, 59.6, close, 2_500_000);
}

describe('new 52-week high on hand-built bars', () => {
  it('fires on the first close above every high of the past 252 bars; stop 2 ATR, target 4 ATR', () => {
    const bars = base().build();
    const atr = computeIndicators(bars).atr14[278]!;
    const match = detectAt(newHigh52w, bars, 278)!;
    expect(match.patternFamily).toBe('momentum');
    expect(match.pivot).toBeCloseTo(60.2, 8);
    expect(match.stopLoss).toBeCloseTo(match.pivot - 2 * atr, 10);
    expect(match.target1).toBeCloseTo(match.pivot + 4 * atr, 10);
    // the pause since the prior high: bar 170 (the later of the two 60.20 highs) to bar 277, down to 53.80
    expect(match.geometry).toEqual({ start: 170, end: 277, depthPct: expect.closeTo((100 * 6.4) / 60.2, 6), lengthBars: 108, contractions: 0 });
    expect(match.breakout).toEqual({ triggered: true, barIndex: 278, volumeRatio: 2.5 });
    expect(match.reasons.slice(0, 2)).toEqual([
      'close 61.00 at a new 252-bar high, 1.3% above the prior high 60.20',
      'prior high set 108 bars earlier; pullback since 10.6% deep',
    ]);
  });

  it('needs the close, not only the high, above the prior high', () => {
    expect(detectAt(newHigh52w, base(60.1).build(), 278)).toBeNull();
  });

  it('fires once per run: not again while new-high closes keep coming', () => {
    // closes step 0.2575 a bar, more than the 0.20 from close to high, so every bar from 263 on closes at a new high
    const bars = new BarBuilder().quiet(260, 40).ramp(40, 50).build();
    expect(detectAt(newHigh52w, bars, 263)?.breakout.barIndex).toBe(263);
    expect(detectAt(newHigh52w, bars, 267)?.breakout.barIndex).toBe(263);
    expect(detectAt(newHigh52w, bars, 268)).toBeNull();
  });

  it('needs a year of history', () => {
    const bars = new BarBuilder().quiet(100, 40).ramp(40, 50).build();
    for (let asOf = 100; asOf < bars.close.length; asOf++) expect(detectAt(newHigh52w, bars, asOf)).toBeNull();
  });

  it('never reads past asOf', () => {
    const bars = base().ramp(10, 64).build();
    for (let asOf = 255; asOf < bars.close.length; asOf++) expectNoLookAhead(newHigh52w, bars, asOf);
  });
});

describe('new 52-week high on real daily history', () => {
  // NVDA, 2024-01-08: after topping at 505.48 on 2023-11-20 and pulling back
  // 11%, the close of 522.53 set a new 52-week (and all-time) high on 1.6×
  // the 50-day volume — the start of its 2024 run.
  it('NVDA on 2024-01-08', async () => {
    const nvda = await history(DIEPERDEV, 'NVDA');
    const match = detectOn(newHigh52w, nvda, '2024-01-08')!;
    expect(match.breakout.barIndex).toBe(nvda.at('2024-01-08'));
    expect(match.pivot).toBe(nvda.bars.high[nvda.at('2023-11-20')]!);
    expect(match.geometry.start).toBe(nvda.at('2023-11-20'));
    expect(match.breakout.volumeRatio).toBeGreaterThan(1.5);
    for (const day of ['2024-01-05', '2024-01-08', '2024-01-09']) expectNoLookAhead(newHigh52w, nvda.bars, nvda.at(day));
  });

  // SMCI, 2024-01-19: its preliminary-results gap closed at 423.36, 18.3%
  // above the 357.99 high of 2024-01-10, on 7.2× volume.
  it('SMCI on 2024-01-19', async () => {
    const smci = await history(DIEPERDEV, 'SMCI');
    const match = detectOn(newHigh52w, smci, '2024-01-19')!;
    expect(match.pivot).toBe(smci.bars.high[smci.at('2024-01-10')]!);
    expect(match.reasons[0]).toBe('close 423.36 at a new 252-bar high, 18.3% above the prior high 357.99');
  });

  // NVDA, 2023-05-25: the AI-guidance gap closed at a new high, but NVDA had
  // already closed at new highs on 2023-05-01, 05-08, 05-17 and 05-18: one run,
  // not a fresh breakout.
  it('NVDA: 2023-05-25 is not a fresh new high', async () => {
    const nvda = await history(DIEPERDEV, 'NVDA');
    const b = nvda.at('2023-05-25');
    expect(nvda.bars.close[b]!).toBeGreaterThan(nvda.ind.high252[b - 1]!);
    expect(detectOn(newHigh52w, nvda, '2023-05-25')).toBeNull();
  });
});
