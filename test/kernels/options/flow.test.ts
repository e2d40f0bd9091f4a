import { describe, expect, it } from 'bun:test';
import { blackScholesGreeks } from '../../../src/kernels/options/black-scholes';
import { gammaExposureAt, gammaFlip, optionsFlow, tradeSide, type FlowContract } from '../../../src/kernels/options/flow';

const c = (over: Partial<FlowContract>): FlowContract => ({
  contractSymbol: 'X',
  type: 'call',
  strike: 100,
  expiry: '2026-12-18',
  years: 0.1,
  bid: 1.9,
  ask: 2.1,
  last: 2,
  volume: 0,
  openInterest: 0,
  iv: 0.3,
  ...over,
});

const chain: FlowContract[] = [
  c({ contractSymbol: 'C100', strike: 100, last: 2.1, volume: 3000, openInterest: 1000 }), // unusual, at the ask: sweep-like
  c({ contractSymbol: 'C110', strike: 110, bid: 0.4, ask: 0.5, last: 0.42, volume: 800, openInterest: 5000 }), // sold at the bid, not unusual
  c({ contractSymbol: 'P90', type: 'put', strike: 90, bid: 0.6, ask: 0.7, last: 0.65, volume: 600, openInterest: 200 }), // unusual, at the mid → ask side
  c({ contractSymbol: 'P95', type: 'put', strike: 95, bid: 1, ask: 1.2, last: null, volume: 0, openInterest: 4000 }),
];

describe('options flow', () => {
  it('sums premium by side with the quote rule, and the ratios (hand-computed)', () => {
    const f = optionsFlow(chain, { spot: 100, rate: 0.04 });
    expect(f.totals.callVolume).toBe(3800);
    expect(f.totals.putVolume).toBe(600);
    expect(f.totals.callPremium).toBeCloseTo(3000 * 2.1 * 100 + 800 * 0.42 * 100, 6); // 630,000 + 33,600
    expect(f.premiumBySide.callAsk).toBeCloseTo(630_000, 6);
    expect(f.premiumBySide.callBid).toBeCloseTo(33_600, 6);
    expect(f.premiumBySide.putAsk).toBeCloseTo(600 * 0.65 * 100, 6); // last = mid counts as the ask side
    expect(f.ratios.callPutVolume).toBeCloseTo(3800 / 600, 12);
    expect(f.ratios.callPutOpenInterest).toBeCloseTo(6000 / 4200, 12);
    expect(f.unusual.map((p) => p.contractSymbol)).toEqual(['C100', 'P90']);
    expect(f.unusual[0]!.volumeToOi).toBe(3);
    expect(f.largestPrints[0]!.contractSymbol).toBe('C100');
    expect(f.sweepLike).toEqual([{ expiry: '2026-12-18', type: 'call', contracts: 1, volume: 3000, premium: 630_000, strikes: [100] }]);
  });

  it('computes dealer gamma and delta exposure per strike from Black–Scholes greeks', () => {
    const f = optionsFlow(chain, { spot: 100, rate: 0.04 });
    const g95 = blackScholesGreeks('put', 100, 95, 0.1, 0.04, 0.3);
    const row = f.exposure.byStrike.find((r) => r.strike === 95)!;
    expect(row.putGamma).toBeCloseTo(-g95.gamma * 4000 * 100 * 100 * 100 * 0.01, 6);
    expect(row.netDelta).toBeCloseTo(g95.delta * 4000 * 100 * 100, 6);
    expect(f.exposure.totalGamma).toBeCloseTo(gammaExposureAt(chain, 100, 0.04), 6);
    expect(f.exposure.byStrike.map((r) => r.strike)).toEqual([90, 95, 100, 110]);
  });

  it('finds the spot where gamma exposure changes sign', () => {
    // Heavy puts at 90, heavy calls at 110: negative gamma below ~100, positive above.
    const two = [c({ type: 'put', strike: 90, openInterest: 10_000 }), c({ strike: 110, openInterest: 10_000 })];
    const flip = gammaFlip(two, 100, 0.04)!;
    expect(flip).toBeGreaterThan(95);
    expect(flip).toBeLessThan(105);
    expect(gammaExposureAt(two, flip - 1, 0.04)).toBeLessThan(0);
    expect(gammaExposureAt(two, flip + 1, 0.04)).toBeGreaterThan(0);
    expect(gammaFlip([c({ strike: 100, openInterest: 100 })], 100, 0.04)).toBeNull();
  });

  it("sums, at any spot, each priced contract's full-greeks Γ term bit for bit (the flip's trial spots included)", () => {
    const priced = chain.filter((x) => x.openInterest > 0);
    const reference = (spot: number) => priced.reduce((sum, x) => sum + (x.type === 'call' ? 1 : -1) * blackScholesGreeks(x.type, spot, x.strike, x.years, 0.04, x.iv!).gamma * x.openInterest * 100 * spot * spot * 0.01, 0);
    for (let k = 0; k <= 60; k++) {
      const spot = 100 * (0.7 + (0.6 * k) / 60);
      expect(gammaExposureAt(chain, spot, 0.04)).toBe(reference(spot));
    }
    expect(() => gammaExposureAt(chain, 0, 0.04)).toThrow(/spot/);
    expect(() => gammaExposureAt([c({ strike: -1, openInterest: 1 })], 100, 0.04)).toThrow(/strike/);
  });

  it('reads the side of a trade from the last against the mid', () => {
    expect(tradeSide(c({ bid: 1, ask: 2, last: 1.6 }))).toBe('ask');
    expect(tradeSide(c({ bid: 1, ask: 2, last: 1.4 }))).toBe('bid');
    expect(tradeSide(c({ bid: null, ask: 2, last: 1.4 }))).toBe('mid');
  });
});
