import { describe, expect, it } from 'bun:test';
import { normalCdf } from '../../../src/kernels/options/normal';
import { finishAboveProbability, finishBelowProbability, touchProbability } from '../../../src/kernels/options/touch';
import { seededRandom } from '../../helpers/random';

/**
 * Monte Carlo twin: log-price paths on a grid of `steps`, with the Brownian
 * bridge crossing probability between grid points, exp(−2(b − X_i)(b − X_{i+1}) / (σ²Δt))
 * (P. Glasserman, "Monte Carlo Methods in Financial Engineering", 2003, §6.4),
 * so the estimate is of continuous monitoring. Returns the touch frequency,
 * the frequency of finishing beyond the barrier, and the standard error of the first.
 */
function simulate(spot: number, barrier: number, years: number, vol: number, drift: number, paths: number, steps: number, seed: number) {
  const rand = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand()); // Box–Muller
  const sign = barrier > spot ? 1 : -1;
  const b = sign * Math.log(barrier / spot); // reflected so the barrier is above
  const dt = years / steps;
  const mean = sign * (drift - 0.5 * vol * vol) * dt;
  const sd = vol * Math.sqrt(dt);
  let touched = 0;
  let beyond = 0;
  for (let p = 0; p < paths; p++) {
    let x = 0;
    let hit = false;
    for (let k = 0; k < steps; k++) {
      const next = x + mean + sd * normal();
      if (!hit && (next >= b || rand() < Math.exp((-2 * (b - x) * (b - next)) / (sd * sd)))) hit = true;
      x = next;
    }
    if (hit) touched++;
    if (x >= b) beyond++;
  }
  const p = touched / paths;
  return { touch: p, beyond: beyond / paths, standardError: Math.sqrt((p * (1 - p)) / paths) };
}

describe('touch probability', () => {
  it('is twice the chance of finishing beyond the barrier when the log-price has no drift (μ = σ²/2), the reflection principle', () => {
    for (const [barrier, years, vol] of [[110, 1, 0.2], [90, 0.25, 0.3], [150, 2, 0.45], [70, 0.5, 0.6]] as const) {
      const drift = 0.5 * vol * vol;
      const beyond = barrier > 100 ? finishAboveProbability(100, barrier, years, vol, drift) : finishBelowProbability(100, barrier, years, vol, drift);
      expect(Math.abs(touchProbability(100, barrier, years, vol, drift) - 2 * beyond)).toBeLessThan(1e-15);
      expect(beyond).toBeCloseTo(normalCdf(-Math.abs(Math.log(barrier / 100)) / (vol * Math.sqrt(years))), 15);
    }
  });

  it('agrees with a seeded Monte Carlo (Brownian bridge) within 4 standard errors, with drift up and down', () => {
    const cases = [
      [100, 115, 0.5, 0.25, 0.08],
      [100, 120, 1, 0.3, -0.1],
      [100, 85, 0.5, 0.35, 0.05],
      [100, 90, 1, 0.2, -0.15],
    ] as const;
    cases.forEach(([spot, barrier, years, vol, drift], i) => {
      const mc = simulate(spot, barrier, years, vol, drift, 40_000, 50, 20240601 + i);
      const exact = touchProbability(spot, barrier, years, vol, drift);
      expect(Math.abs(exact - mc.touch)).toBeLessThan(4 * mc.standardError);
      const beyond = barrier > spot ? finishAboveProbability(spot, barrier, years, vol, drift) : finishBelowProbability(spot, barrier, years, vol, drift);
      expect(Math.abs(beyond - mc.beyond)).toBeLessThan(4 * Math.sqrt((beyond * (1 - beyond)) / 40_000));
    });
  });

  it('is at least the chance of finishing beyond, rises with time, and is 1 at the spot', () => {
    let previous = 0;
    for (const years of [0.01, 0.1, 0.5, 1, 2, 5]) {
      const p = touchProbability(100, 125, years, 0.3, 0.04);
      expect(p).toBeGreaterThanOrEqual(finishAboveProbability(100, 125, years, 0.3, 0.04));
      expect(p).toBeGreaterThan(previous);
      previous = p;
    }
    expect(touchProbability(100, 100, 1, 0.3)).toBe(1);
  });

  it('follows the deterministic path at zero vol or zero time', () => {
    expect(touchProbability(100, 110, 1, 0, 0.1)).toBe(1); // 100 e^0.1 = 110.5 reaches 110
    expect(touchProbability(100, 120, 1, 0, 0.1)).toBe(0);
    expect(touchProbability(100, 90, 1, 0, 0.1)).toBe(0);
    expect(touchProbability(100, 110, 0, 0.3)).toBe(0);
  });

  it('neither overflows nor gives NaN when the drift is large against a tiny vol', () => {
    for (const vol of [1e-3, 1e-6, 1e-170]) {
      const p = touchProbability(100, 200, 1, vol, 0.8);
      expect(p).toBe(1);
      const q = touchProbability(100, 150, 1, vol, 0.3); // the path peaks at 100 e^0.3 ≈ 135
      expect(q).toBeGreaterThanOrEqual(0);
      expect(q).toBeLessThan(1e-20);
    }
  });

  it('rejects a non-positive spot or barrier and negative years or vol', () => {
    expect(() => touchProbability(0, 110, 1, 0.2)).toThrow(RangeError);
    expect(() => touchProbability(100, -5, 1, 0.2)).toThrow(/barrier/);
    expect(() => touchProbability(100, 110, -1, 0.2)).toThrow(/years/);
    expect(() => finishAboveProbability(100, 110, 1, -0.2)).toThrow(/vol/);
  });
});

describe('finishing above or below a level', () => {
  it('is N(d2) of Black–Scholes under the risk-neutral drift, and the two sum to 1', () => {
    const [S, L, T, r, q, v] = [100, 105, 0.5, 0.05, 0.01, 0.25];
    const d2 = (Math.log(S / L) + (r - q - 0.5 * v * v) * T) / (v * Math.sqrt(T));
    expect(finishAboveProbability(S, L, T, v, r - q)).toBe(normalCdf(d2));
    expect(finishBelowProbability(S, L, T, v, r - q)).toBe(normalCdf(-d2));
    expect(finishAboveProbability(S, L, T, v, r - q) + finishBelowProbability(S, L, T, v, r - q)).toBeCloseTo(1, 15);
  });

  it('keeps the digits of a small tail probability', () => {
    // drift σ²/2 cancels: N(−ln 3 / 0.1) = 2.22830842665099e−28 (mpmath 1.3, 40 digits)
    const p = finishAboveProbability(100, 300, 1, 0.1, 0.005);
    expect(Math.abs(p / 2.22830842665099e-28 - 1)).toBeLessThan(1e-13);
  });
});
