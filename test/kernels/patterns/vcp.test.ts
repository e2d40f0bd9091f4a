/**
 * `vcp` against hand-built bars (expected numbers worked out from the
 * builder's arithmetic) and against real daily history (the committed dieperdev
 * excerpts in test/fixtures; the marketlab cases and the firing rate are in
 * test/real/kernels/patterns) (expected numbers read off the bars; the dates were found by running the
 * detector over both folders and then checked bar by bar against Minervini's
 * definition, as each case's comment says).
 */
import { describe, expect, it } from 'bun:test';
import { computeIndicators, type Ohlcv } from '../../../src/kernels/indicators';
import { vcp, vcpDetector } from '../../../src/kernels/patterns/vcp';
import { barsFromCloses, history, straightLegs } from './builders';
import { DIEPERDEV, expectNoLookAheadOn, expectNoMatchBetween, matchOn } from './real-data';

// ---- hand-built bars ------------------------------------------------------

const detectAt = (bars: Ohlcv, asOf: number) => vcp.detect({ bars, ind: computeIndicators(bars), asOf });

// A 250-bar Stage 2 advance from 40 to 100 (bar 250), then four pullbacks with
// falling highs and rising lows: 100 → 75, 98 → 83.3, 96 → 88.3, 95 → 91.2,
// and a rally to 94 (bar 313); bar 314 closes at 97 on twice the volume.
// Volume: 1.5× in the first pullback, 1× after, 0.5× in the last.
const TOP = 250, L1 = 265, H4 = 306, L4 = 309, END = 313, BREAKOUT = 314;
const UPTREND: [number, number][] = [[100, 250]];
const BASE: [number, number][] = [[75, 15], [98, 15], [83.3, 8], [96, 8], [88.3, 5], [95, 5], [91.2, 3], [94, 4]];
const dryingUp = (i: number) => (i === BREAKOUT ? 2 : i > TOP && i <= L1 ? 1.5 : i >= H4 ? 0.5 : 1);
function vcpBars(base = BASE, prior = UPTREND, start = 40, volumes: (i: number) => number = dryingUp) {
  const closes = straightLegs(start, ...prior, ...base);
  return { bars: barsFromCloses([...closes, 97, 98, 99, 100, 101], volumes), end: closes.length - 1 };
}

describe('vcp on hand-built bars', () => {
  const { bars } = vcpBars();

  it('counts four contractions, each smaller than the last, with the last one’s high as the pivot', () => {
    const m = detectAt(bars, END)!;
    const depth = (h: number, l: number) => (100 * (h * 1.005 - l * 0.995)) / (h * 1.005);
    expect(m).not.toBeNull();
    expect([m.patternType, m.patternFamily, m.direction]).toEqual(['vcp', 'base', 'long']);
    expect(m.geometry).toMatchObject({ start: TOP, end: END, lengthBars: END - TOP + 1, contractions: 4 });
    expect(m.reasons[0]).toBe(`4 contractions: ${[depth(100, 75), depth(98, 83.3), depth(96, 88.3), depth(95, 91.2)].map((d) => `${(Math.round(d * 10) / 10).toFixed(1)}%`).join(' → ')}`);
    expect(m.reasons[0]).toBe('4 contractions: 25.7% → 15.8% → 8.9% → 5.0%');
    expect(m.pivot).toBeCloseTo(95 * 1.005, 10);
    expect(bars.high[H4]).toBeCloseTo(95 * 1.005, 10);
    expect(m.stopLoss).toBeCloseTo(91.2 * 0.995, 10); // the last contraction's low, 5.0% under the pivot
    expect(bars.low[L4]).toBeCloseTo(91.2 * 0.995, 10);
    expect(m.target1).toBeCloseTo(95 * 1.005 + (100 * 1.005 - 75 * 0.995), 10);
    expect(m.geometry.depthPct).toBeCloseTo(depth(100, 75), 10);
    expect(m.breakout.triggered).toBe(false);
    expect(m.reasons[2]).toBe('volume in the last contraction 0.3× the first\'s');
    expect(m.quality).toBeGreaterThan(0.7);
  });

  it('triggers on the close above the pivot with that bar’s volume over the 50-day average', () => {
    const m = detectAt(bars, BREAKOUT)!;
    let sum = 0;
    for (let i = END - 49; i <= END; i++) sum += bars.volume[i]!;
    expect(m.breakout).toEqual({ triggered: true, barIndex: BREAKOUT, volumeRatio: expect.any(Number) });
    expect(m.breakout.volumeRatio!).toBeCloseTo(2e6 / (sum / 50), 10);
    expect(m.geometry.contractions).toBe(4);
  });

  it('does not fire on expanding contractions (8% → 12% → 20%)', () => {
    const { bars: wide, end } = vcpBars([[92, 8], [99, 8], [88, 8], [98, 8], [79, 8], [96, 8], [94, 3]]);
    expect(detectAt(wide, end)).toBeNull();
    expect(detectAt(wide, end + 1)).toBeNull();
  });

  it('does not fire outside a Stage 2 uptrend', () => {
    // the same base after a 250-bar decline from 160: below a falling 200-day average
    const { bars: stage4, end } = vcpBars(BASE, [[100, 250]], 160);
    expect(detectAt(stage4, end)).toBeNull();
    expect(detectAt(stage4, end + 1)).toBeNull();
  });

  it('does not fire when volume swells into the right side', () => {
    const { bars: heavy, end } = vcpBars(BASE, UPTREND, 40, (i) => (i === BREAKOUT ? 2 : i > TOP && i <= L1 ? 0.8 : i >= H4 ? 1.6 : 1));
    expect(detectAt(heavy, end)).toBeNull();
    expect(detectAt(heavy, end + 1)).toBeNull();
  });

  it('does not fire on a single pullback', () => {
    // with the last-contraction limit out of the way, only the count can reject it
    const loose = vcpDetector({ maxLastDepthPct: 30 });
    const { bars: one, end } = vcpBars([[75, 15], [95, 20]]);
    expect(loose.detect({ bars: one, ind: computeIndicators(one), asOf: end })).toBeNull();
    expect(loose.detect({ bars, ind: computeIndicators(bars), asOf: END })!.geometry.contractions).toBe(4);
  });

  it('rejects an asOf outside the bars and bad options', () => {
    expect(() => detectAt(bars, bars.close.length)).toThrow(RangeError);
    expect(detectAt(bars, vcp.lookback - 2)).toBeNull();
    expect(() => vcpDetector({ minContractions: 1 })).toThrow(RangeError);
  });
});

describe('vcp without look-ahead', () => {
  it('gives the same answer whatever the bars after asOf are', () => {
    const closes = straightLegs(40, ...UPTREND, ...BASE, [97, 1], [101, 4]);
    for (const asOf of [END - 3, END, BREAKOUT, BREAKOUT + 3]) {
      const expected = detectAt(barsFromCloses(closes, dryingUp), asOf);
      const cut = barsFromCloses(closes.slice(0, asOf + 1), dryingUp);
      const crashed = barsFromCloses(closes.map((c, i) => (i > asOf ? c * 0.5 : c)), (i) => (i > asOf ? 25 : dryingUp(i)));
      expect(detectAt(cut, asOf)).toEqual(expected);
      expect(detectAt(crashed, asOf)).toEqual(expected);
    }
    expect(detectAt(barsFromCloses(closes, dryingUp), BREAKOUT)!.breakout.barIndex).toBe(BREAKOUT);
  });
});

// ---- real history ---------------------------------------------------------

describe('vcp on real daily history', () => {
  // CRM (daily_yf_dieperdev), early 2015, well above rising 150- and 200-day
  // averages: from 71.00 (2015-02-26) three pullbacks of 10.4%, 7.3% and 3.6%
  // with highs at 71.00, 69.9 and 69.08 (2015-04-23) and volume fading to 0.4×
  // the first pullback's; on 2015-04-29 it closed at 73.36 on 6.7× volume
  // (reports that it was exploring a sale).
  it('CRM broke out of a 3-contraction VCP on 2015-04-29', async () => {
    const { match, dates, bars, at } = await matchOn(vcp, DIEPERDEV, 'CRM', '2015-04-29');
    expect(dates).toEqual({ start: '2015-02-26', end: '2015-04-28', breakout: '2015-04-29' });
    expect(match!.reasons[0]).toBe('3 contractions: 10.4% → 7.3% → 3.6%');
    expect(match!.geometry.contractions).toBe(3);
    expect(match!.pivot).toBe(bars.high[at('2015-04-23')]!);
    expect(match!.pivot).toBeCloseTo(69.08, 2);
    expect(match!.stopLoss).toBe(bars.low[at('2015-04-28')]!); // 66.57, the last contraction's low
    expect(match!.breakout.volumeRatio!).toBeCloseTo(6.71, 1);
  });

  // NVDA (daily_yf_dieperdev), spring 2017 in a strong Stage 2: 30.23
  // (2017-02-07) → 23.79 (21.3%), 27.50 → 23.87 (13.2%), 26.71 (2017-05-01) →
  // 25.58 (4.2%), then the Q1-earnings gap to 30.32 on 2017-05-10 on 3.9× volume.
  it('NVDA gapped out of a 3-contraction VCP on 2017-05-10', async () => {
    const { match, dates } = await matchOn(vcp, DIEPERDEV, 'NVDA', '2017-05-10');
    expect(dates).toEqual({ start: '2017-02-07', end: '2017-05-09', breakout: '2017-05-10' });
    expect(match!.reasons[0]).toBe('3 contractions: 21.3% → 13.2% → 4.2%');
    expect(match!.pivot).toBeCloseTo(26.71, 2);
    expect(match!.stopLoss).toBeCloseTo(25.58, 2);
    expect(match!.breakout.volumeRatio!).toBeCloseTo(3.88, 1);
  });

  it('never fires while INTC falls through 2022', async () => {
    expectNoMatchBetween(vcp, await history(DIEPERDEV, 'INTC'), '2022-01-03', '2022-10-31');
  });

  it('reads no bar after asOf on real data: CRM cut at each day gives the same match', async () => {
    expectNoLookAheadOn(vcp, await history(DIEPERDEV, 'CRM'), ['2015-04-23', '2015-04-28', '2015-04-29', '2015-05-01']);
  });
});
