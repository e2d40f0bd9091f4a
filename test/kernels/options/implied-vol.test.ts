import { describe, expect, it } from 'bun:test';
import { blackScholesGreeks, blackScholesPrice, blackScholesPrice1d, type OptionKind } from '../../../src/kernels/options/black-scholes';
import { IMPLIED_VOL_REASONS, impliedVol, impliedVol1d } from '../../../src/kernels/options/implied-vol';

const KINDS: OptionKind[] = ['call', 'put'];

/** Reference twin: plain bisection of the price on [0, 20] until the bracket stops shrinking. */
function bisectVol(kind: OptionKind, price: number, S: number, K: number, T: number, r: number, q: number): number {
  let lo = 0;
  let hi = 20;
  for (let k = 0; k < 200; k++) {
    const mid = 0.5 * (lo + hi);
    if (mid === lo || mid === hi) break;
    if (blackScholesPrice(kind, S, K, T, r, mid, q) < price) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

describe('implied volatility: textbook quotes', () => {
  it('recovers σ = 20% from Hull Example 15.6 (10th ed.): call 4.7594, put 0.8086 at S 42, K 40, r 10%, T ½', () => {
    const call = impliedVol('call', blackScholesPrice('call', 42, 40, 0.5, 0.1, 0.2), 42, 40, 0.5, 0.1);
    const put = impliedVol('put', blackScholesPrice('put', 42, 40, 0.5, 0.1, 0.2), 42, 40, 0.5, 0.1);
    expect(call.reason).toBe('ok');
    expect(Math.abs(call.vol - 0.2)).toBeLessThan(1e-14);
    expect(Math.abs(put.vol - 0.2)).toBeLessThan(1e-14);
    // Hull's rounded 4.76 implies a vol a hair above 20%.
    expect(impliedVol('call', 4.76, 42, 40, 0.5, 0.1).vol).toBeCloseTo(0.2, 3);
  });
});

describe('implied volatility round trip', () => {
  it('recovers σ to 1e-8 over a grid of strikes, expiries, vols, rates and yields wherever vega ≥ 0.01', () => {
    let checked = 0;
    for (const kind of KINDS)
      for (const K of [40, 60, 80, 90, 100, 110, 125, 150, 250])
        for (const T of [1 / 365, 0.02, 0.1, 0.25, 0.5, 1, 2, 5])
          for (const v of [0.01, 0.05, 0.1, 0.2, 0.4, 0.8, 1.5, 3])
            for (const [r, q] of [[0, 0], [0.05, 0.02], [-0.005, 0.04]] as const) {
              const price = blackScholesPrice(kind, 100, K, T, r, v, q);
              const result = impliedVol(kind, price, 100, K, T, r, q);
              expect(result.reason).toBe('ok');
              if (blackScholesGreeks(kind, 100, K, T, r, v, q).vega < 0.01) continue;
              checked++;
              expect(Math.abs(result.vol - v)).toBeLessThan(1e-8);
            }
    expect(checked).toBeGreaterThan(1500);
  });

  it('agrees with plain bisection (its reference twin) on quotes that did not come from the pricer', () => {
    for (const kind of KINDS)
      for (const [K, T, price] of [[100, 0.5, 6.5], [120, 1, 2.25], [80, 0.1, 0.31], [95, 2, 14.2]] as const) {
        const lowerBound = kind === 'call' ? Math.max(100 - K * Math.exp(-0.03 * T), 0) : Math.max(K * Math.exp(-0.03 * T) - 100, 0);
        const quote = lowerBound + price;
        const vol = impliedVol(kind, quote, 100, K, T, 0.03).vol;
        expect(Math.abs(vol - bisectVol(kind, quote, 100, K, T, 0.03, 0))).toBeLessThan(1e-12);
      }
  });

  it('solves at the money (forward = strike) in closed form', () => {
    const S = 100 * Math.exp(-0.05); // forward exactly 100 with r = 5%, T = 1
    const price = blackScholesPrice('call', S, 100, 1, 0.05, 0.37);
    expect(Math.abs(impliedVol('call', price, S, 100, 1, 0.05).vol - 0.37)).toBeLessThan(1e-14);
  });
});

describe('implied volatility outside the no-arbitrage bounds', () => {
  it('is NaN below intrinsic value, not a throw', () => {
    // Call lower bound: S e^(−qT) − K e^(−rT) = 42 − 40 e^(−0.05) = 3.95…
    expect(impliedVol('call', 3.9, 42, 40, 0.5, 0.1)).toEqual({ vol: NaN, reason: 'below-intrinsic' });
    expect(impliedVol('put', 9.5, 42, 52, 0.5, 0.0)).toEqual({ vol: NaN, reason: 'below-intrinsic' });
    expect(impliedVol('call', -0.01, 42, 60, 0.5, 0.1)).toEqual({ vol: NaN, reason: 'below-intrinsic' });
  });

  it('is NaN at or above the upper bound (call: S e^(−qT), put: K e^(−rT))', () => {
    expect(impliedVol('call', 42, 42, 40, 0.5, 0.1)).toEqual({ vol: NaN, reason: 'above-upper-bound' });
    expect(impliedVol('call', 41.5, 42, 40, 0.5, 0.1, 0.03).reason).toBe('above-upper-bound');
    expect(impliedVol('put', 40 * Math.exp(-0.05) + 0.01, 42, 40, 0.5, 0.1).reason).toBe('above-upper-bound');
  });

  it('is 0 at intrinsic value, and NaN at expiry or for a non-finite quote', () => {
    expect(impliedVol('call', 0, 42, 60, 0.5, 0.1)).toEqual({ vol: 0, reason: 'ok' });
    const intrinsic = 42 - 40 * Math.exp(-0.05);
    expect(impliedVol('call', intrinsic, 42, 40, 0.5, 0.1)).toEqual({ vol: 0, reason: 'ok' });
    expect(impliedVol('call', 2, 42, 40, 0, 0.1)).toEqual({ vol: NaN, reason: 'expired' });
    expect(impliedVol('call', NaN, 42, 40, 0.5, 0.1).reason).toBe('price-not-finite');
  });

  it('still throws a RangeError for a contract the model cannot price', () => {
    expect(() => impliedVol('call', 1, 0, 40, 0.5, 0.1)).toThrow(RangeError);
    expect(() => impliedVol('call', 1, 42, 40, -1, 0.1)).toThrow(/years/);
  });
});

describe('implied volatility batch', () => {
  it('writes the same vols as the one-option function, and reason codes indexing IMPLIED_VOL_REASONS', () => {
    const n = 400;
    const callPut = Int8Array.from({ length: n }, (_, i) => (i % 2 ? 1 : -1));
    const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
    const options = {
      callPut,
      spot: col(() => 100),
      strike: col((i) => 60 + (i % 20) * 5),
      years: col((i) => 0.05 + (i % 7) * 0.3),
      rate: col(() => 0.03),
      vol: col((i) => 0.1 + (i % 11) * 0.05),
      dividendYield: col(() => 0.01),
    };
    const price = new Float64Array(n);
    blackScholesPrice1d(options, price);
    price[3] = -1; // below intrinsic
    price[4] = 1e6; // above the upper bound
    const out = new Float64Array(n);
    const reasons = new Uint8Array(n);
    impliedVol1d(options, price, out, reasons);
    for (let i = 0; i < n; i++) {
      const kind = callPut[i] === 1 ? 'call' : 'put';
      const one = impliedVol(kind, price[i]!, 100, options.strike[i]!, options.years[i]!, 0.03, 0.01);
      expect(Object.is(out[i], one.vol)).toBe(true);
      expect(IMPLIED_VOL_REASONS[reasons[i]!]).toBe(one.reason);
    }
    expect(IMPLIED_VOL_REASONS[reasons[3]!]).toBe('below-intrinsic');
    expect(IMPLIED_VOL_REASONS[reasons[4]!]).toBe('above-upper-bound');
  });
});
