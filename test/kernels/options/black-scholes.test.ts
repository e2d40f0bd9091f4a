import { describe, expect, it } from 'bun:test';
import {
  blackScholesGamma,
  blackScholesGreeks,
  blackScholesGreeks1d,
  blackScholesPrice,
  blackScholesPrice1d,
  gammaOverSpots,
  type GreekColumns,
  type OptionColumns,
  type OptionKind,
} from '../../../src/kernels/options/black-scholes';

const KINDS: OptionKind[] = ['call', 'put'];

/** A grid of contracts around spot 100: strikes, expiries, vols, rates (one negative) and yields. */
function grid(): [number, number, number, number, number, number][] {
  const rows: [number, number, number, number, number, number][] = [];
  for (const strike of [50, 80, 95, 100, 105, 125, 200])
    for (const years of [0.01, 0.1, 0.5, 1, 3])
      for (const vol of [0.05, 0.2, 0.45, 1])
        for (const [rate, q] of [[0.05, 0], [-0.01, 0.02], [0.08, 0.05]] as const) rows.push([100, strike, years, rate, vol, q]);
  return rows;
}

function columns(rows: [number, number, number, number, number, number][], callPut: number): OptionColumns {
  const pick = (k: number) => Float64Array.from(rows, (r) => r[k]!);
  return { callPut: new Int8Array(rows.length).fill(callPut), spot: pick(0), strike: pick(1), years: pick(2), rate: pick(3), vol: pick(4), dividendYield: pick(5) };
}

describe('Black–Scholes–Merton prices: textbook values', () => {
  it('prices Hull Example 15.6 (10th ed.): S 42, K 40, r 10%, σ 20%, T ½ → call 4.76, put 0.81', () => {
    expect(blackScholesPrice('call', 42, 40, 0.5, 0.1, 0.2)).toBeCloseTo(4.76, 2);
    expect(blackScholesPrice('put', 42, 40, 0.5, 0.1, 0.2)).toBeCloseTo(0.81, 2);
    // The same formulas in mpmath at 40 digits: 4.759422392871533 and 0.8085993729000936.
    expect(blackScholesPrice('call', 42, 40, 0.5, 0.1, 0.2)).toBeCloseTo(4.759422392871533, 13);
    expect(blackScholesPrice('put', 42, 40, 0.5, 0.1, 0.2)).toBeCloseTo(0.8085993729000936, 13);
  });

  it('prices Hull Example 17.1 (10th ed.), an index call with dividend yield 3%: S 930, K 900, r 8%, σ 20%, T 2 months → 51.83', () => {
    expect(blackScholesPrice('call', 930, 900, 2 / 12, 0.08, 0.2, 0.03)).toBeCloseTo(51.83, 2);
  });

  it('prices Haug (2007) §1.1.1 and §1.1.2: call 2.1334 (S 60, K 65, T ¼, r 8%, σ 30%), Merton put 2.4648 (S 100, K 95, T ½, r 10%, q 5%, σ 20%)', () => {
    expect(blackScholesPrice('call', 60, 65, 0.25, 0.08, 0.3)).toBeCloseTo(2.1334, 4);
    expect(blackScholesPrice('put', 100, 95, 0.5, 0.1, 0.2, 0.05)).toBeCloseTo(2.4648, 4);
  });
});

describe('Black–Scholes–Merton greeks', () => {
  it("matches Hull's Greek Letters example (10th ed., ch. 19): S 49, K 50, r 5%, σ 20%, T 20 weeks", () => {
    const g = blackScholesGreeks('call', 49, 50, 0.3846, 0.05, 0.2);
    expect(g.delta).toBeCloseTo(0.522, 3);
    expect(g.gamma).toBeCloseTo(0.066, 3);
    expect(g.vega).toBeCloseTo(12.1, 1); // per 1.00 of vol: 0.121 per vol point
    expect(g.theta).toBeCloseTo(-4.31, 2); // per year
    expect(g.thetaPerDay).toBeCloseTo(-0.0118, 4); // Hull: −0.0118 per calendar day
    expect(g.rho).toBeCloseTo(8.91, 2);
    expect(g.price).toBeCloseTo(2.40, 2); // "about $240,000" for 100,000 options
  });

  it('equals central finite differences of the price over the grid (the reference twin)', () => {
    for (const kind of KINDS)
      for (const [S, K, T, r, v, q] of grid()) {
        const price = (s = S, t = T, rr = r, vol = v) => blackScholesPrice(kind, s, K, t, rr, vol, q);
        const g = blackScholesGreeks(kind, S, K, T, r, v, q);
        // Steps scaled to the option's width σ√T keep the truncation error far below the tolerances.
        const width = Math.min(1, v * Math.sqrt(T));
        const h = 1e-4 * S * width;
        // Tolerance: relative, plus the rounding noise of the difference quotient (ulps of the price over the step).
        const ulps = 8 * Number.EPSILON * Math.max(1, price());
        const close = (greek: number, difference: number, tolerance: number, noise: number) =>
          expect(Math.abs(greek - difference)).toBeLessThan(tolerance * Math.abs(greek) + noise);
        expect(g.price).toBe(price());
        close(g.delta, (price(S + h) - price(S - h)) / (2 * h), 1e-6, ulps / h);
        // A second difference cancels about 8 digits: a looser 1e-4.
        close(g.gamma, (price(S + h) - 2 * price() + price(S - h)) / (h * h), 1e-4, (4 * ulps) / (h * h));
        const dv = 1e-5 * v;
        close(g.vega, (price(S, T, r, v + dv) - price(S, T, r, v - dv)) / (2 * dv), 1e-6, ulps / dv);
        const dt = 1e-5 * T;
        close(g.theta, (price(S, T - dt) - price(S, T + dt)) / (2 * dt), 1e-6, ulps / dt);
        const dr = 1e-5;
        close(g.rho, (price(S, T, r + dr) - price(S, T, r - dr)) / (2 * dr), 1e-6, ulps / dr);
      }
  });

  it('shares gamma and vega between a call and a put, and their deltas differ by e^(−qT)', () => {
    for (const [S, K, T, r, v, q] of grid()) {
      const c = blackScholesGreeks('call', S, K, T, r, v, q);
      const p = blackScholesGreeks('put', S, K, T, r, v, q);
      expect(c.gamma).toBe(p.gamma);
      expect(c.vega).toBe(p.vega);
      expect(Math.abs(c.delta - p.delta - Math.exp(-q * T))).toBeLessThan(1e-15);
    }
  });
});

describe('Γ alone', () => {
  it("is Hull's 0.066 (ch. 19 example) and, bit for bit, the full greeks' Γ of either kind over the grid, at expiry and at zero vol, also as a function of the spot", () => {
    expect(blackScholesGamma(49, 50, 0.3846, 0.05, 0.2)).toBeCloseTo(0.066, 3);
    const rows = [...grid(), [100, 100, 0, 0.05, 0.3, 0], [110, 100, 0, 0.05, 0.3, 0], [100, 100, 1, 0.05, 0, 0.01], [110, 100, 1e-10, 0.05, 0.3, 0]] as const;
    for (const [S, K, T, r, v, q] of rows)
      for (const kind of KINDS) expect([S, K, T, r, v, q, blackScholesGamma(S, K, T, r, v, q)]).toEqual([S, K, T, r, v, q, blackScholesGreeks(kind, S, K, T, r, v, q).gamma]);
    expect(() => blackScholesGamma(100, 100, 1, 0.05, -0.2)).toThrow(/vol/);
    for (const [S, K, T, r, v, q] of rows) for (const spot of [S * 0.7, S, S * 1.3]) expect(gammaOverSpots(K, T, r, v, q)(spot)).toBe(blackScholesGreeks('put', spot, K, T, r, v, q).gamma);
    expect(() => gammaOverSpots(100, 1, 0.05, 0.2)(-1)).toThrow(/spot/);
  });
});

describe('put–call parity', () => {
  it('holds to 1e-10 over the grid: C − P = S e^(−qT) − K e^(−rT)', () => {
    for (const [S, K, T, r, v, q] of grid()) {
      const gap = blackScholesPrice('call', S, K, T, r, v, q) - blackScholesPrice('put', S, K, T, r, v, q);
      expect(Math.abs(gap - (S * Math.exp(-q * T) - K * Math.exp(-r * T)))).toBeLessThan(1e-10);
    }
  });
});

describe('edge cases', () => {
  it('is worth its intrinsic value at expiry, with delta 0 or ±1 (½ exactly at the strike)', () => {
    expect(blackScholesPrice('call', 110, 100, 0, 0.05, 0.3)).toBe(10);
    expect(blackScholesPrice('put', 110, 100, 0, 0.05, 0.3)).toBe(0);
    expect(blackScholesGreeks('call', 110, 100, 0, 0.05, 0.3).delta).toBe(1);
    expect(blackScholesGreeks('call', 90, 100, 0, 0.05, 0.3).delta).toBe(0);
    expect(blackScholesGreeks('put', 90, 100, 0, 0.05, 0.3).delta).toBe(-1);
    const atStrike = blackScholesGreeks('call', 100, 100, 0, 0.05, 0.3);
    expect(atStrike).toMatchObject({ price: 0, delta: 0.5, gamma: Infinity, vega: 0, theta: -Infinity, rho: 0 });
    const otm = blackScholesGreeks('put', 110, 100, 0, 0.05, 0.3);
    expect(otm).toMatchObject({ price: 0, delta: -0, gamma: 0, vega: 0, rho: -0 });
  });

  it('approaches the expiry values continuously as T → 0', () => {
    const near = blackScholesGreeks('call', 110, 100, 1e-10, 0.05, 0.3);
    expect(near.price).toBeCloseTo(10, 8);
    expect(near.delta).toBeCloseTo(1, 12);
    expect(near.gamma).toBe(0);
  });

  it('is the discounted forward intrinsic value at zero vol', () => {
    const forwardIntrinsic = 100 * Math.exp(-0.01) - 100 * Math.exp(-0.05);
    expect(blackScholesPrice('call', 100, 100, 1, 0.05, 0, 0.01)).toBeCloseTo(forwardIntrinsic, 14);
    expect(blackScholesPrice('put', 100, 100, 1, 0.05, 0, 0.01)).toBe(0);
    const g = blackScholesGreeks('call', 100, 100, 1, 0.05, 0, 0.01);
    expect(g.delta).toBe(Math.exp(-0.01));
    expect(g.gamma).toBe(0);
    expect(g.vega).toBe(0);
    expect(g.rho).toBeCloseTo(100 * Math.exp(-0.05), 12);
  });

  it('stays finite and inside its bounds deep in and out of the money', () => {
    for (const K of [1e-6, 1, 1e4, 1e6])
      for (const kind of KINDS) {
        const g = blackScholesGreeks(kind, 100, K, 0.25, 0.05, 0.2, 0.02);
        for (const value of Object.values(g)) expect(Number.isFinite(value)).toBe(true);
        expect(g.price).toBeGreaterThanOrEqual(0);
        const bound = kind === 'call' ? 100 * Math.exp(-0.005) : K * Math.exp(-0.0125);
        expect(g.price).toBeLessThanOrEqual(bound);
      }
    // A deep out-of-the-money call keeps its relative digits (mpmath: 4.301588275261368e-43).
    expect(blackScholesPrice('call', 100, 400, 0.25, 0.05, 0.2) / 4.301588275261368e-43 - 1).toBeLessThan(1e-12);
  });

  it('rejects a non-positive spot or strike, negative years or vol, and non-finite arguments', () => {
    expect(() => blackScholesPrice('call', 0, 100, 1, 0.05, 0.2)).toThrow(RangeError);
    expect(() => blackScholesPrice('call', -1, 100, 1, 0.05, 0.2)).toThrow(/spot/);
    expect(() => blackScholesPrice('call', 100, 0, 1, 0.05, 0.2)).toThrow(/strike/);
    expect(() => blackScholesPrice('call', 100, 100, -0.1, 0.05, 0.2)).toThrow(/years/);
    expect(() => blackScholesPrice('call', 100, 100, 1, 0.05, -0.2)).toThrow(/vol/);
    expect(() => blackScholesPrice('call', NaN, 100, 1, 0.05, 0.2)).toThrow(RangeError);
    expect(() => blackScholesGreeks('put', 100, 100, 1, NaN, 0.2)).toThrow(/rate/);
    expect(() => blackScholesGreeks('put', 100, 100, 1, 0.05, 0.2, Infinity)).toThrow(/dividend/);
    expect(() => blackScholesPrice('CALL' as OptionKind, 100, 100, 1, 0.05, 0.2)).toThrow(/kind/);
  });
});

describe('batch kernels', () => {
  it('write exactly what the one-option functions return', () => {
    for (const [phi, kind] of [[1, 'call'], [-1, 'put']] as const) {
      const rows = grid();
      const opts = columns(rows, phi);
      const n = rows.length;
      const prices = new Float64Array(n);
      blackScholesPrice1d(opts, prices);
      const out: Required<GreekColumns> = {
        price: new Float64Array(n),
        delta: new Float64Array(n),
        gamma: new Float64Array(n),
        vega: new Float64Array(n),
        theta: new Float64Array(n),
        thetaPerDay: new Float64Array(n),
        rho: new Float64Array(n),
      };
      blackScholesGreeks1d(opts, out);
      rows.forEach(([S, K, T, r, v, q], i) => {
        expect(prices[i]).toBe(blackScholesPrice(kind, S, K, T, r, v, q));
        const g = blackScholesGreeks(kind, S, K, T, r, v, q);
        for (const key of Object.keys(out) as (keyof typeof out)[]) expect(out[key][i]).toBe(g[key]);
      });
    }
  });

  it('write only the greek columns they are given', () => {
    const opts = columns(grid().slice(0, 3), 1);
    const delta = new Float64Array(3);
    blackScholesGreeks1d(opts, { delta });
    expect(delta[0]).toBeGreaterThan(0.9);
  });

  it('reject a bad option by index, a bad call/put flag, and mismatched lengths', () => {
    const opts = columns(grid().slice(0, 4), 1);
    opts.spot[2] = 0;
    expect(() => blackScholesPrice1d(opts, new Float64Array(4))).toThrow(/option 2: spot/);
    opts.spot[2] = 100;
    opts.callPut[1] = 0;
    expect(() => blackScholesPrice1d(opts, new Float64Array(4))).toThrow(/option 1: callPut/);
    opts.callPut[1] = -1;
    expect(() => blackScholesPrice1d(opts, new Float64Array(3))).toThrow(RangeError);
    expect(() => blackScholesPrice1d({ ...opts, vol: new Float64Array(5) }, new Float64Array(4))).toThrow(/column vol/);
  });
});
