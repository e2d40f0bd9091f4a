/**
 * The backtest's point-in-time signals take two shortcuts (issue 20): one fit
 * memo shared by the scans of successive bars, and indicators handed in (the
 * store's incremental state) instead of computed per call. Both must change
 * nothing: `signalsAtEachBar` is compared with its naive reference twin — at
 * each bar a scan from scratch (`scanBars`: the indicators recomputed over the
 * bars up to that bar, no memo) — over random bar series (fast-check) and the
 * synthetic market. And the memo's copy of a fit is what `structuredClone`
 * (its copy before) gives.
 */
import { describe, expect, it } from 'bun:test';
import fc from 'fast-check';
import { signalsAtEachBar, type BarSignal, type PointInTimeContext } from '../../../src/kernels/backtest';
import { computeScanIndicators } from '../../../src/kernels/indicators';
import { headBars, type Ohlcv } from '../../../src/kernels/ohlcv';
import { copyFit } from '../../../src/kernels/patterns/types';
import { scanBars } from '../../../src/kernels/scan';
import { createSyntheticProvider } from '../../../src/providers/synthetic';
import { seededRandom } from '../../helpers/random';

/** The reference twin: a scan from scratch at every bar of [from, to]. */
function naiveSignals(bars: Ohlcv, from: number, to: number, context: PointInTimeContext = {}): BarSignal[][] {
  const out: BarSignal[][] = [];
  for (let asOf = from; asOf <= to; asOf++) {
    const ctx = { asOf, rsRank: context.rsRankAt?.(asOf) ?? null, regime: context.regimeAt?.(asOf) ?? null };
    out.push(
      scanBars(headBars(bars, asOf + 1), ctx).map(({ match, state, score }) => ({
        asOf,
        patternType: match.patternType,
        patternFamily: match.patternFamily,
        direction: match.direction,
        state,
        pivot: match.pivot,
        target1: match.target1,
        stopLoss: match.stopLoss,
        finalScore: score.finalScore,
        band: score.band,
        breakoutIndex: match.breakout.barIndex,
        patternStart: match.geometry.start,
        patternEnd: match.geometry.end,
      })),
    );
  }
  return out;
}

/**
 * Daily bars from a seeded walk whose drift and volatility change every
 * `leg` bars (advances, bases, pullbacks: the shapes detectors look for), with
 * gaps and volume bursts now and then.
 */
function walkBars(seed: number, n: number, leg: number): Ohlcv {
  const rand = seededRandom(seed);
  const ts = new Float64Array(n), open = new Float64Array(n), high = new Float64Array(n), low = new Float64Array(n), close = new Float64Array(n), volume = new Float64Array(n);
  let price = 50, drift = 0, vol = 0.02;
  for (let i = 0; i < n; i++) {
    if (i % leg === 0) {
      drift = (rand() - 0.4) * 0.012;
      vol = 0.004 + rand() * 0.025;
    }
    const gap = rand() < 0.02 ? 1 + (rand() - 0.3) * 0.12 : 1;
    const o = price * gap;
    const c = o * Math.exp(drift + (rand() - 0.5) * 2 * vol);
    ts[i] = Date.UTC(2020, 0, 1) + i * 86_400_000;
    open[i] = o;
    close[i] = c;
    high[i] = Math.max(o, c) * (1 + rand() * vol);
    low[i] = Math.min(o, c) * (1 - rand() * vol);
    volume[i] = 1e6 * (0.5 + rand()) * (rand() < 0.05 ? 3 : 1);
    price = c;
  }
  return { ts, open, high, low, close, volume };
}

describe('signalsAtEachBar (memo, indicators handed in) against a scan from scratch at each bar', () => {
  it('lists the same signals on random series (fast-check)', () => {
    let listed = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 8, max: 40 }), fc.integer({ min: 30, max: 90 }), fc.integer({ min: 1, max: 99 }), (seed, leg, span, rank) => {
        const bars = walkBars(seed, 420, leg);
        const n = bars.ts.length;
        const context: PointInTimeContext = { rsRankAt: (i) => (i % 3 === 0 ? null : rank) };
        const expected = naiveSignals(bars, n - span, n - 1, context);
        expect(signalsAtEachBar(bars, n - span, n - 1, context)).toEqual(expected);
        // with the indicators handed in, computed over more bars than it scans
        expect(signalsAtEachBar(headBars(bars, n), n - span, n - 2, context, computeScanIndicators(bars))).toEqual(expected.slice(0, -1));
        listed += expected.reduce((sum, at) => sum + at.length, 0);
      }),
      { numRuns: 12, seed: 20 },
    );
    expect(listed).toBeGreaterThan(50);
  });

  it('lists the same signals on the synthetic market', async () => {
    const provider = createSyntheticProvider({ seed: 5, now: () => Date.UTC(2026, 0, 5, 22) });
    let listed = 0;
    for (const symbol of ['AAPL', 'NVDA']) {
      const bars: Ohlcv = await provider.bars({ symbol, timeframe: 'daily' });
      const n = bars.ts.length;
      const expected = naiveSignals(bars, n - 60, n - 1);
      expect(signalsAtEachBar(bars, n - 60, n - 1, {}, computeScanIndicators(bars))).toEqual(expected);
      listed += expected.reduce((sum, at) => sum + at.length, 0);
    }
    expect(listed).toBeGreaterThan(10);
  });

  it('rejects indicators shorter than the bars it scans', () => {
    const bars = walkBars(3, 300, 20);
    expect(() => signalsAtEachBar(bars, 250, 299, {}, computeScanIndicators(headBars(bars, 299)))).toThrow(RangeError);
  });
});

describe("the fit memo's copy", () => {
  it('equals structuredClone on fit-shaped records and shares nothing with them (fast-check)', () => {
    const fitRecord = fc.record({
      start: fc.integer(),
      pivot: fc.double(),
      lows: fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 64 }).map((xs) => Int32Array.from(xs)),
      nested: fc.record({ a: fc.double(), b: fc.array(fc.double(), { maxLength: 4 }) }),
    });
    fc.assert(
      fc.property(fitRecord, (fit) => {
        const copy = copyFit(fit);
        expect(copy).toEqual(structuredClone(fit));
        expect(copy.lows).not.toBe(fit.lows);
        expect(copy.nested).not.toBe(fit.nested);
        expect(copy.nested.b).not.toBe(fit.nested.b);
      }),
      { numRuns: 200, seed: 21 },
    );
  });
});
