import { describe, expect, it } from 'bun:test';
import { rampScore, squeezeRisk, squeezeScore } from '../../src/kernels/squeeze';

describe('squeeze score', () => {
  it('weights the known components and renormalises over them (hand-computed)', () => {
    // 25% of float → 0.8; 8 days → 0.75; +10% → 0.4; borrow unknown.
    const r = squeezeScore({ shortPercentFloat: 0.25, daysToCover: 8, momentum: 0.1, utilisation: null });
    expect(r.score).toBeCloseTo((100 * (0.4 * 0.8 + 0.3 * 0.75 + 0.2 * 0.4)) / 0.9, 10); // 69.444…
    expect(r.risk).toBe('elevated');
    expect(r.components.map((c) => c.score)).toEqual([0.8, 0.75, 0.4, null]);
    expect(r.components.reduce((a, c) => a + c.effectiveWeight, 0)).toBeCloseTo(1, 12);
  });

  it('uses all four weights when borrow is known', () => {
    const r = squeezeScore({ shortPercentFloat: 0.4, daysToCover: 12, momentum: 0.3, utilisation: 0.95 });
    expect(r.score).toBeCloseTo(100 * (0.4 + 0.3 + 0.2 + 0.1 * 0.9), 10); // 99
    expect(r.risk).toBe('high');
  });

  it('reads low for a lightly shorted, falling stock', () => {
    const r = squeezeScore({ shortPercentFloat: 0.02, daysToCover: 1.5, momentum: -0.1, utilisation: null });
    expect(r.score).toBe(0);
    expect(r.risk).toBe('low');
  });

  it('has no score without any component', () => {
    expect(squeezeScore({ shortPercentFloat: null, daysToCover: null, momentum: null, utilisation: null })).toMatchObject({ score: null, risk: null });
  });

  it('clamps the ramp and bands at the documented bounds', () => {
    expect(rampScore(0.175, 0.05, 0.3)).toBeCloseTo(0.5, 12);
    expect(rampScore(-1, 0, 1)).toBe(0);
    expect(rampScore(2, 0, 1)).toBe(1);
    expect([0, 24.99, 25, 49.99, 50, 74.99, 75, 100].map(squeezeRisk)).toEqual(['low', 'low', 'moderate', 'moderate', 'elevated', 'elevated', 'high', 'high']);
  });
});
