import { describe, expect, it } from 'bun:test';
import { debitSpreads, medianTimeToLevel, optionCandidates, probabilityTargetFirst, tradeProbabilities, type TradePlan } from '../../../src/kernels/options/analyze';
import { blackScholesPrice } from '../../../src/kernels/options/black-scholes';
import { touchProbability } from '../../../src/kernels/options/touch';

const long: TradePlan = { direction: 'long', trigger: 100, target: 110, stop: 95, iv: 0.3, rate: 0.05 };

describe('option analysis kernel', () => {
  it('puts the median first-passage time where the touch probability is one half', () => {
    const t = medianTimeToLevel(100, 110, 0.3);
    expect(t).toBeCloseTo((Math.log(1.1) / (0.3 * 0.6744897501960817)) ** 2, 12); // 0.2218… years
    expect(touchProbability(100, 110, t, 0.3, 0.045)).toBeCloseTo(0.5, 10); // driftless log: μ = σ²/2
    expect(tradeProbabilities(long, t).touchTarget).toBeCloseTo(0.5, 10);
  });

  it('gives the gambler’s-ruin chance of the target before the stop (hand-computed)', () => {
    expect(probabilityTargetFirst(100, 110, 95)).toBeCloseTo(Math.log(100 / 95) / Math.log(110 / 95), 14); // 0.34988
    expect(probabilityTargetFirst(100, 110, 90)).toBeCloseTo(0.5250, 4); // ln(10/9) ÷ ln(11/9)
  });

  it('prices each candidate with Black–Scholes and values it at target and stop', () => {
    const grid = optionCandidates(long, [95, 100, 105, 110], [15, 30, 60]);
    expect(grid).toHaveLength(12);
    for (const c of grid) {
      expect(c.greeks.price).toBeCloseTo(blackScholesPrice('call', 100, c.strike, c.expiryDays / 365, 0.05, 0.3), 12);
      if (c.strike < 110) expect(c.valueAtTarget).toBeGreaterThan(c.valueAtStop);
      else expect(c.valueAtTarget).toBeGreaterThanOrEqual(c.valueAtStop);
      expect(c.breakeven).toBeCloseTo(c.strike + c.greeks.price, 12);
      const at = Math.min(medianTimeToLevel(100, 110, 0.3), c.expiryDays / 365);
      const remaining = c.expiryDays / 365 - at;
      const expected = remaining > 0 ? blackScholesPrice('call', 110, c.strike, remaining, 0.05, 0.3) : Math.max(0, 110 - c.strike);
      expect(c.valueAtTarget).toBeCloseTo(expected, 12);
    }
  });

  it('keeps put–call parity between the long and short grids', () => {
    const calls = optionCandidates(long, [100, 105], [30]);
    const puts = optionCandidates({ ...long, direction: 'short', target: 90, stop: 105 }, [100, 105], [30]);
    for (let i = 0; i < 2; i++) {
      const K = calls[i]!.strike;
      expect(calls[i]!.greeks.price - puts[i]!.greeks.price).toBeCloseTo(100 - K * Math.exp(-0.05 * (30 / 365)), 10);
      expect(puts[i]!.kind).toBe('put');
    }
  });

  it('prices the debit spread as the difference of its legs, capped at the strike width', () => {
    const [s] = debitSpreads(long, 100, 110, [30]);
    const T = 30 / 365;
    expect(s!.cost).toBeCloseTo(blackScholesPrice('call', 100, 100, T, 0.05, 0.3) - blackScholesPrice('call', 100, 110, T, 0.05, 0.3), 12);
    expect(s!.maxValue).toBe(10);
    expect(s!.valueAtTarget).toBeLessThanOrEqual(10);
    expect(s!.valueAtTarget).toBeGreaterThan(s!.cost);
    expect(s!.breakeven).toBeCloseTo(100 + s!.cost, 12);
  });
});
