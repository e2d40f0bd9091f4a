import { describe, expect, it } from 'bun:test';
import { deflatedSharpe, expectedMaxSharpe, moments, probabilisticSharpe, sharpeRatio } from '../../../src/kernels/backtest';

// Sources of expected numbers:
//  BLdP14  Bailey & López de Prado, "The Deflated Sharpe Ratio", JPM 40(5), 2014: the
//          numerical example (annualised SR 2.5, T = 1,250, N = 100, V = 1/2 annualised,
//          γ₃ = −3, γ₄ = 10): SR₀ ≈ 0.1132 per day, DSR ≈ 0.9004.
//  SciPy   the same formulas in Python with scipy.stats (SciPy 1.17.1): norm.cdf/norm.ppf,
//          skew(bias=True), kurtosis(fisher=False, bias=True), numpy std(ddof=1).

const RETURNS = [0.012, -0.004, 0.007, 0.001, -0.011, 0.02, 0.003, -0.002, 0.009, -0.006];

describe('moments', () => {
  it('gives the mean, sample sd and population skewness and kurtosis (SciPy)', () => {
    const m = moments(RETURNS);
    expect(m.n).toBe(10);
    expect(m.mean).toBeCloseTo(0.0029, 15);
    expect(m.sd).toBeCloseTo(0.009290975310602339, 15);
    expect(m.skewness).toBeCloseTo(0.3221614529093884, 12);
    expect(m.kurtosis).toBeCloseTo(2.3276169579382375, 12);
  });

  it('has no skewness or kurtosis without dispersion, and no sd under two values', () => {
    expect(moments([0.01, 0.01, 0.01]).skewness).toBeNaN();
    expect(moments([0.01]).sd).toBeNaN();
    expect(sharpeRatio([0.01, 0.01])).toBeNaN();
  });
});

describe('probabilistic Sharpe ratio (Bailey & López de Prado 2012)', () => {
  it('matches SciPy against 0 and against a benchmark of 0.1', () => {
    const m = moments(RETURNS);
    const sample = { sharpe: m.mean / m.sd, observations: 10, skewness: m.skewness, kurtosis: m.kurtosis };
    expect(sample.sharpe).toBeCloseTo(0.3121308477368015, 14);
    expect(probabilisticSharpe(sample)).toBeCloseTo(0.8339932559232004, 9);
    expect(probabilisticSharpe(sample, 0.1)).toBeCloseTo(0.7451413329864645, 9);
  });

  it('is NaN below two observations or with a non-finite input', () => {
    expect(probabilisticSharpe({ sharpe: 0.2, observations: 1, skewness: 0, kurtosis: 3 })).toBeNaN();
    expect(probabilisticSharpe({ sharpe: NaN, observations: 50, skewness: 0, kurtosis: 3 })).toBeNaN();
  });

  it('is one half when the estimate equals the benchmark', () => {
    expect(probabilisticSharpe({ sharpe: 0.1, observations: 250, skewness: -1, kurtosis: 6 }, 0.1)).toBeCloseTo(0.5, 15);
  });
});

describe('deflated Sharpe ratio (Bailey & López de Prado 2014)', () => {
  it('reproduces the paper’s numerical example: SR₀ ≈ 0.1132 and DSR ≈ 0.9004', () => {
    const result = deflatedSharpe({ sharpe: 2.5 / Math.sqrt(250), observations: 1250, skewness: -3, kurtosis: 10, trials: 100, trialVariance: 0.5 / 250 });
    expect(result.expectedMaxSharpe).toBeCloseTo(0.1132, 4); // BLdP14
    expect(result.value).toBeCloseTo(0.9004, 4); // BLdP14
    expect(result.expectedMaxSharpe).toBeCloseTo(0.11317200186513214, 9); // SciPy
    expect(result.value).toBeCloseTo(0.9003968344493903, 8); // SciPy
    expect(result.trials).toBe(100);
  });

  it('gives the expected maximum of N unskilled trials (SciPy), 0 for one trial', () => {
    expect(expectedMaxSharpe(1, 0.5)).toBe(0);
    expect(expectedMaxSharpe(4, 0.0004)).toBeCloseTo(0.021042456483786012, 10);
    expect(expectedMaxSharpe(10, 0.001)).toBeCloseTo(0.04979317032084743, 10);
  });

  it('deflates more as trials grow, and equals PSR(0) for one trial', () => {
    const sample = { sharpe: 0.08, observations: 500, skewness: -0.5, kurtosis: 5 };
    const one = deflatedSharpe({ ...sample, trials: 1, trialVariance: 0.001 });
    expect(one.value).toBe(probabilisticSharpe(sample, 0));
    const values = [2, 10, 100, 1000].map((trials) => deflatedSharpe({ ...sample, trials, trialVariance: 0.001 }).value);
    for (let i = 1; i < values.length; i++) expect(values[i]!).toBeLessThan(values[i - 1]!);
  });

  it('refuses a trial count that is not a positive integer or a negative variance', () => {
    expect(() => expectedMaxSharpe(0, 0.1)).toThrow(RangeError);
    expect(() => expectedMaxSharpe(2.5, 0.1)).toThrow(RangeError);
    expect(() => expectedMaxSharpe(3, -1)).toThrow(RangeError);
  });
});
