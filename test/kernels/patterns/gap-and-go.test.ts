import { describe, expect, it } from 'bun:test';
import { computeIndicators } from '../../../src/kernels/indicators';
import { gapAndGo } from '../../../src/kernels/patterns/gap-and-go';
import { BarBuilder, detectAt, detectOn, expectNoLookAhead, history } from './builders';
import { DIEPERDEV } from './real-data';

// 60 quiet bars (highs 50.50, true range 1.0, so ATR ≈ 1.0), then bar 60.
const gap = (open: number, high: number, low: number, close: number, volume = 3_000_000) => new BarBuilder().quiet(60, 50).bar(open, high, low, close, volume);

describe('gap and go on hand-built bars', () => {
  it('fires on a 5% gap over the prior high on 3× volume that closes near its high', () => {
    const bars = gap(53, 54.5, 52.8, 54.2).build();
    const atr = computeIndicators(bars).atr14[59]!;
    const match = detectAt(gapAndGo, bars, 60)!;
    expect(atr).toBeLessThan(1.4); // so the risk is the 1.40 from the close to the low
    expect(match.patternType).toBe('gap_and_go');
    expect(match.pivot).toBe(50.5);
    expect(match.stopLoss).toBe(52.8);
    expect(match.target1).toBeCloseTo(54.2 + 2 * 1.4, 10);
    expect(match.geometry).toEqual({ start: 59, end: 59, depthPct: expect.closeTo(100 / 50.5, 8), lengthBars: 1, contractions: 0 });
    expect(match.breakout).toEqual({ triggered: true, barIndex: 60, volumeRatio: 3 });
    expect(match.reasons[0]).toBe('gap +5.0% over the prior high 50.50 (open 53.00), 2.5 ATR');
    expect(match.reasons[2]).toBe('closed at 82% of its range, above the open; gap unfilled (low 52.80)');
  });

  it('reports the event for 5 bars', () => {
    const bars = gap(53, 54.5, 52.8, 54.2).quiet(6, 54, 0.2).build();
    expect(detectAt(gapAndGo, bars, 64)?.breakout.barIndex).toBe(60);
    expect(detectAt(gapAndGo, bars, 65)).toBeNull();
  });

  it('does not fire when the gap fills', () => {
    expect(detectAt(gapAndGo, gap(53, 54.5, 50.4, 54.2).build(), 60)).toBeNull();
  });

  it('does not fire when the bar closes in the lower half of its range', () => {
    expect(detectAt(gapAndGo, gap(53, 54.5, 52.8, 53.4).build(), 60)).toBeNull();
  });

  it('does not fire on 1.5× volume', () => {
    expect(detectAt(gapAndGo, gap(53, 54.5, 52.8, 54.2, 1_500_000).build(), 60)).toBeNull();
  });

  it('does not fire on a 2% gap', () => {
    expect(detectAt(gapAndGo, gap(51.5, 52.5, 51.3, 52.3).build(), 60)).toBeNull();
  });

  it('does not fire on a 4.1% gap smaller than one ATR', () => {
    // closes swinging ±1.5 give true ranges of 3.4; the gap is 53.80 − 51.70 = 2.10
    const bars = new BarBuilder().quiet(60, 50, 1.5).bar(53.8, 55, 53.6, 54.8, 3_000_000).build();
    expect(detectAt(gapAndGo, bars, 60)).toBeNull();
  });

  it('never reads past asOf', () => {
    const bars = gap(53, 54.5, 52.8, 54.2).quiet(8, 54, 0.2).build();
    for (let asOf = 55; asOf < bars.close.length; asOf++) expectNoLookAhead(gapAndGo, bars, asOf);
  });
});

describe('gap and go on real daily history', () => {
  // META, 2024-02-02: after earnings and its first dividend it opened at
  // 459.60, 14.8% over the 400.50 high of 2024-02-01, traded 5.1× its 50-day
  // volume, never came back to 400.50 (low 453.01) and closed at 474.99.
  it('META on 2024-02-02', async () => {
    const meta = await history(DIEPERDEV, 'META');
    const match = detectOn(gapAndGo, meta, '2024-02-02')!;
    expect(match.breakout.barIndex).toBe(meta.at('2024-02-02'));
    expect(match.pivot).toBe(meta.bars.high[meta.at('2024-02-01')]!);
    expect(match.stopLoss).toBe(meta.bars.low[meta.at('2024-02-02')]!);
    expect(match.reasons[0]).toStartWith('gap +14.8% over the prior high 400.50 (open 459.60)');
    for (const day of ['2024-02-01', '2024-02-02', '2024-02-05']) expectNoLookAhead(gapAndGo, meta.bars, meta.at(day));
  });

  // NVDA, 2023-05-25: a 21% gap over the 318.28 high on 3.6× volume, but it
  // closed at 379.80 in a 366.35–394.80 range — 47% of the way up, the gap
  // faded rather than went.
  it('NVDA: the 2023-05-25 gap closed in the lower half of its range', async () => {
    const nvda = await history(DIEPERDEV, 'NVDA');
    expect(detectOn(gapAndGo, nvda, '2023-05-25')).toBeNull();
  });

  // A consumer staple without an earnings gap of 3% and 1 ATR in 2023.
  it('KO: no gap and go in 2023', async () => {
    const ko = await history(DIEPERDEV, 'KO');
    for (let i = ko.at('2023-01-03'); i <= ko.at('2023-12-29'); i++) expect(gapAndGo.detect({ bars: ko.bars, ind: ko.ind, asOf: i })).toBeNull();
  });
});
