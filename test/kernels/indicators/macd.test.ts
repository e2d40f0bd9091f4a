import { describe, expect, it } from 'bun:test';
import { macd1d, macdLineLookback, macdLookback, type MacdOptions } from '../../../src/kernels/indicators/macd';
import { randomWalk, seededRandom } from '../../helpers/random';
import { expectSeries } from '../../helpers/series';

/** An SMA-seeded EMA over the values that are present (null = not yet defined). */
function naiveEma(values: (number | null)[], period: number): (number | null)[] {
  const alpha = 2 / (period + 1);
  const out: (number | null)[] = values.map(() => null);
  const present = values.flatMap((v, i) => (v === null ? [] : [i]));
  if (present.length < period) return out;
  let ema = present.slice(0, period).reduce((a, i) => a + values[i]!, 0) / period;
  out[present[period - 1]!] = ema;
  for (const i of present.slice(period)) out[i] = ema = alpha * values[i]! + (1 - alpha) * ema;
  return out;
}

/** Reference twin: Appel's three lines straight from their definitions. */
function naiveMacd(close: number[], fast: number, slow: number, signal: number) {
  const emaFast = naiveEma(close, fast);
  const emaSlow = naiveEma(close, slow);
  const line = close.map((_, t) => (emaFast[t] === null || emaSlow[t] === null ? null : emaFast[t]! - emaSlow[t]!));
  const sig = naiveEma(line, signal);
  const hist = line.map((m, t) => (m === null || sig[t] === null ? null : m - sig[t]!));
  const nan = (xs: (number | null)[]) => xs.map((x) => x ?? NaN);
  return { macd: nan(line), signal: nan(sig), histogram: nan(hist) };
}

function run(close: Float64Array, options: MacdOptions = {}) {
  const len = close.length;
  const out = { macd: new Float64Array(len), signal: new Float64Array(len), histogram: new Float64Array(len) };
  macd1d(close, out.macd, out.signal, out.histogram, options);
  return out;
}

describe('macd lookbacks and options', () => {
  it('starts the line at slow − 1 (25) and the signal and histogram at slow + signal − 2 (33)', () => {
    expect(macdLineLookback()).toBe(25);
    expect(macdLookback()).toBe(33);
    expect(macdLookback({ fast: 1, slow: 3, signal: 3 })).toBe(4);
  });

  it('rejects bad periods, fast ≥ slow and short outputs', () => {
    const x = new Float64Array(40);
    for (const bad of [{ fast: 0 }, { slow: 2.5 }, { signal: -1 }, { signal: NaN }]) {
      expect(() => macdLookback(bad)).toThrow(/must be a positive integer/);
      expect(() => macd1d(x, x.slice(), x.slice(), x.slice(), bad)).toThrow(RangeError);
    }
    expect(() => macdLineLookback({ fast: 26, slow: 26 })).toThrow(/must be less than slow/);
    expect(() => macdLookback({ fast: 30 })).toThrow(/must be less than slow/);
    expect(() => macd1d(x, x.slice(), new Float64Array(39), x.slice())).toThrow(/every output/);
  });
});

describe('macd values', () => {
  it('matches a 10-bar example computed by hand (fast 1, slow 3, signal 3)', () => {
    // EMA1 is the close itself; EMA3 (α = 0.5, seed mean(2, 4, 6) = 4) = 4, 6, 6, 5, 5.5, 7.75, 7.875, 7.9375 from bar 2
    // (see ema.test.ts), so MACD = close − EMA3 = 2, 2, 0, −1, 0.5, 2.25, 0.125, 0.0625 from bar 2.
    // Signal = EMA3 of MACD, seeded with mean(2, 2, 0) = 4/3 at bar 4, then s += 0.5 × (m − s):
    // 4/3 + ½(−1 − 4/3) = 1/6; 1/6 + ½(½ − 1/6) = 1/3; 1/3 + ½(9/4 − 1/3) = 31/24; 31/24 + ½(1/8 − 31/24) = 17/24;
    // 17/24 + ½(1/16 − 17/24) = 37/96. Histogram = MACD − signal: −4/3, −7/6, 1/6, 23/24, −7/12, −31/96.
    // (rechecked with Python fractions.)
    const out = run(Float64Array.of(2, 4, 6, 8, 6, 4, 6, 10, 8, 8), { fast: 1, slow: 3, signal: 3 });
    expectSeries(out.macd, [NaN, NaN, 2, 2, 0, -1, 0.5, 2.25, 0.125, 0.0625], 0);
    expectSeries(out.signal, [NaN, NaN, NaN, NaN, 4 / 3, 1 / 6, 1 / 3, 31 / 24, 17 / 24, 37 / 96], 1e-15);
    expectSeries(out.histogram, [NaN, NaN, NaN, NaN, -4 / 3, -7 / 6, 1 / 6, 23 / 24, -7 / 12, -31 / 96], 1e-15);
  });

  it('equals its naive twin over a grid of periods on a random walk', () => {
    const close = randomWalk(seededRandom(91), 500);
    const plain = Array.from(close);
    for (const [fast, slow, signal] of [[12, 26, 9], [1, 2, 1], [3, 10, 16], [5, 35, 5], [8, 17, 9], [50, 200, 20], [100, 300, 250]]) {
      const fastOut = run(close, { fast, slow, signal });
      const slowOut = naiveMacd(plain, fast!, slow!, signal!);
      expectSeries(fastOut.macd, slowOut.macd);
      expectSeries(fastOut.signal, slowOut.signal);
      expectSeries(fastOut.histogram, slowOut.histogram);
    }
  });

  it('skips missing closes in every EMA', () => {
    const close = randomWalk(seededRandom(92), 300);
    const gaps = [0, 5, 30, 31, 200];
    for (const i of gaps) close[i] = NaN;
    const out = run(close);
    const kept = Array.from(close).filter(Number.isFinite);
    const slow = naiveMacd(kept, 12, 26, 9);
    const at = Array.from(close.keys()).filter((i) => !gaps.includes(i));
    at.forEach((i, k) => {
      for (const key of ['macd', 'signal', 'histogram'] as const) {
        if (Number.isNaN(slow[key][k]!)) expect(out[key][i]).toBeNaN();
        else expect(out[key][i]).toBeCloseTo(slow[key][k]!, 9);
      }
    });
    for (const i of gaps) expect(out.macd[i]).toBeNaN();
  });
});
