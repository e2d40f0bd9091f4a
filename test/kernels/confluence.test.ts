/**
 * Confluence on hand-built series (a steady trend with bounded noise, flat
 * noise), with the higher timeframe built as weekly bars from the same daily
 * bars. Real history (daily_marketlab) is in test/real/kernels/confluence.test.ts.
 */
import { describe, expect, it } from 'bun:test';
import { completedHigherBars, confluence, CONFLUENCE_WEIGHTS, type ConfluenceInput } from '../../src/kernels/confluence';
import type { Ohlcv } from '../../src/kernels/ohlcv';
import { seededRandom } from '../helpers/random';
import { votes, weekly } from './confluence-helpers';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * One bar a calendar day from 2015-01-05 (a Monday): close = 100 × e^(drift·i) × (1 + noise·u),
 * u uniform in [−1, 1). Volume is 1.3M on bars that move with the drift and 0.7M against it
 * (accumulation in an uptrend, distribution in a downtrend); without drift it is random, 0.7M–1.3M.
 */
function series(n: number, drift: number, seed: number, noise = 0.01): Ohlcv {
  const rand = seededRandom(seed);
  const u = () => 2 * rand() - 1;
  const close = Float64Array.from({ length: n }, (_, i) => 100 * Math.exp(drift * i) * (1 + noise * u()));
  const open = close.map((c, i) => (i === 0 ? c : close[i - 1]!));
  const volume = close.map((c, i) => (drift === 0 ? 1e6 * (1 + 0.3 * u()) : 1e6 * (1 + 0.3 * Math.sign(c - open[i]!) * Math.sign(drift))));
  return {
    ts: Float64Array.from({ length: n }, (_, i) => Date.UTC(2015, 0, 5) + i * DAY),
    open,
    high: close.map((c, i) => Math.max(c, open[i]!) * 1.003),
    low: close.map((c, i) => Math.min(c, open[i]!) * 0.997),
    close,
    volume,
  };
}

/** 1,600 daily bars: enough weeks (228) for the weekly 200-bar average and its slope. */
const N = 1600;
const benchmark = series(N, 0, 99).close;
const input = (bars: Ohlcv, overrides: Partial<ConfluenceInput> = {}): ConfluenceInput => ({
  bars,
  benchmarkClose: benchmark.subarray(0, bars.close.length),
  higherTimeframe: weekly(bars),
  asOf: bars.close.length - 1,
  lookback: 50,
  rsRank: null,
  ...overrides,
});

describe('confluence factors', () => {
  it('lists the seven factors in the table order, with weights summing to 1', () => {
    const r = confluence(input(series(N, 0.002, 1)));
    expect(r.factors.map((f) => f.name)).toEqual([
      'trend',
      'momentum',
      'volume',
      'volatilityContraction',
      'relativeStrength',
      'higherTimeframe',
      'activePatterns',
    ]);
    expect(r.factors.map((f) => f.weight)).toEqual(Object.values(CONFLUENCE_WEIGHTS));
    expect(Object.values(CONFLUENCE_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    for (const f of r.factors) expect(f.detail.length).toBeGreaterThan(10);
  });

  it('scores 100 × the weighted votes and measures agreement over the factors with evidence', () => {
    for (const drift of [0.002, -0.002, 0]) {
      const r = confluence(input(series(N, drift, 3)));
      const sum = r.factors.reduce((a, f) => a + f.weight * f.vote, 0);
      expect(r.score).toBeCloseTo(100 * sum, 1);
      const side = { bullish: 1, bearish: -1, neutral: 0 }[r.direction];
      const withEvidence = r.factors.filter((f) => f.value !== null);
      const covered = withEvidence.reduce((a, f) => a + f.weight, 0);
      const agreeing = withEvidence.filter((f) => f.vote === side).reduce((a, f) => a + f.weight, 0);
      expect(r.agreement).toBeCloseTo(agreeing / covered, 2);
      expect(r.coverage).toBeCloseTo(covered, 2);
    }
  });
});

describe('hand-built series', () => {
  it('reads a steady uptrend that outruns its benchmark as bullish, with most of the weight agreeing', () => {
    const r = confluence(input(series(N, 0.002, 1)));
    expect(r.direction).toBe('bullish');
    expect(r.score).toBeGreaterThanOrEqual(60);
    expect(r.agreement).toBeGreaterThanOrEqual(0.7);
    expect(votes(r)).toMatchObject({ trend: 1, volume: 1, relativeStrength: 1, higherTimeframe: 1 });
    expect(r.factors.every((f) => f.vote >= 0)).toBe(true);
  });

  it('reads a steady downtrend with heavy down-volume as bearish', () => {
    const r = confluence(input(series(N, -0.002, 2)));
    expect(r.direction).toBe('bearish');
    expect(r.score).toBeLessThanOrEqual(-60);
    expect(r.agreement).toBeGreaterThanOrEqual(0.7);
    expect(votes(r)).toMatchObject({ trend: -1, volume: -1, relativeStrength: -1, higherTimeframe: -1 });
    expect(r.factors.every((f) => f.vote <= 0)).toBe(true);
  });

  it('reads flat noise as neutral, at the last bar and on most of the last 100', () => {
    const bars = series(N, 0, 5);
    let neutral = 0;
    const from = N - 100;
    const scores: number[] = [];
    for (let asOf = from; asOf < N; asOf++) {
      const r = confluence(input(bars, { asOf }));
      if (r.direction === 'neutral') neutral++;
      scores.push(r.score);
    }
    // Each factor is a coin flip here; the z thresholds and the ±30 band keep most bars neutral.
    expect(neutral).toBeGreaterThanOrEqual(75);
    expect(Math.abs(scores.reduce((a, b) => a + b, 0) / scores.length)).toBeLessThan(10);
    expect(confluence(input(bars)).direction).toBe('neutral');
  });
});

/** Bars exactly as given (high/low 1% around the close), one a day. */
function handBars(closes: number[], volumes: number[]): Ohlcv {
  const close = Float64Array.from(closes);
  return {
    ts: Float64Array.from(closes, (_, i) => Date.UTC(2024, 0, 1) + i * DAY),
    open: close.slice(),
    high: close.map((c) => c * 1.01),
    low: close.map((c) => c * 0.99),
    close,
    volume: Float64Array.from(volumes),
  };
}
const factor = (bars: Ohlcv, name: string, benchmarkClose: Float64Array | null = null) =>
  confluence({ bars, benchmarkClose, higherTimeframe: null, asOf: bars.close.length - 1, lookback: bars.close.length - 1, rsRank: null }).factors.find((f) => f.name === name)!;

describe('windowed factors (hand computations)', () => {
  it('volume: votes when up- minus down-volume is one standard error, z = (U − D) / √Σv²', () => {
    // Bars 1, 3, 4 up on 300, 200, 200; bar 2 down on 100: z = 600 / √180,000 = 1.414; up share 700/800.
    // Accumulation days (≥ 0.2% up on more volume than the bar before): bars 1 and 3; no distribution day.
    const f = factor(handBars([10, 11, 10.5, 11.5, 12], [100, 300, 100, 200, 200]), 'volume');
    expect(f).toMatchObject({ value: 87.5, vote: 1 });
    expect(f.detail).toContain('(z +1.41), 2 accumulation vs 0 distribution days');
  });
  it('volume: a lead of two distribution days cancels the vote', () => {
    // Up 1000 on two bars, down 140 on four: z = 860 / √505,400 = 1.21; but bars 4, 5, 6 fall on
    // rising volume (3 distribution days) against 1 accumulation day (bar 1).
    const f = factor(handBars([10, 10.5, 11, 10.9, 10.8, 10.7, 10.6], [10, 500, 500, 20, 30, 40, 50]), 'volume');
    expect(f.vote).toBe(0);
    expect(f.detail).toContain('1 accumulation vs 3 distribution days (against the volume, so no vote)');
  });
  it('relative strength: votes at a high of the window even when z is under 1', () => {
    // RS 1, 1.1, 1.0, 1.2: z = ln 1.2 / √(2·ln²1.1 + ln²1.2) = 0.80, but 1.2 tops the window.
    const flat = Float64Array.of(100, 100, 100, 100);
    const up = factor(handBars([100, 110, 100, 120], [1, 1, 1, 1]), 'relativeStrength', flat);
    expect(up).toMatchObject({ value: 20, vote: 1 });
    expect(up.detail).toContain('+20.0% over 3 bars (z +0.80), at its high of the window');
    // RS 1.2, 1.0, 1.1, 1.05: −12.5%, z = −0.63, above the window's low of 1.0: no vote.
    const down = factor(handBars([120, 100, 110, 105], [1, 1, 1, 1]), 'relativeStrength', flat);
    expect(down).toMatchObject({ value: -12.5, vote: 0 });
  });
});

describe('lookback and inputs', () => {
  const bars = series(400, 0.002, 1);
  it('rejects a lookback that is not an integer of at least 1', () => {
    for (const lookback of [0, -5, 2.5, Number.NaN]) expect(() => confluence(input(bars, { lookback }))).toThrow(RangeError);
  });
  it('clamps a lookback longer than the history to the bars before asOf, and says so', () => {
    const asOf = 300;
    const clamped = confluence(input(bars, { asOf, lookback: 10_000 }));
    const exact = confluence(input(bars, { asOf, lookback: asOf }));
    expect(clamped.lookback).toBe(asOf);
    for (const name of ['volume', 'relativeStrength'] as const) {
      const f = clamped.factors.find((x) => x.name === name)!;
      expect(f.value).toBe(exact.factors.find((x) => x.name === name)!.value);
      expect(f.detail).toContain('lookback 10000 clamped to the 300 bars');
    }
  });
  it('accepts a one-bar lookback: one bar-to-bar change', () => {
    const r = confluence(input(bars, { lookback: 1 }));
    expect(r.lookback).toBe(1);
    expect(r.factors.find((f) => f.name === 'volume')!.detail).toContain('over 1 bars');
  });
  it('rejects an asOf outside the bars, a misaligned benchmark and an RS rank outside 1–99', () => {
    expect(() => confluence(input(bars, { asOf: 400 }))).toThrow(RangeError);
    expect(() => confluence(input(bars, { asOf: -1 }))).toThrow(RangeError);
    expect(() => confluence(input(bars, { benchmarkClose: benchmark }))).toThrow(RangeError);
    expect(() => confluence(input(bars, { benchmarkClose: null, rsRank: 0 }))).toThrow(RangeError);
  });
  it('falls back to the RS rank without a benchmark, and has no evidence with neither', () => {
    const rs = (rsRank: number | null) => confluence(input(bars, { benchmarkClose: null, rsRank })).factors.find((f) => f.name === 'relativeStrength')!;
    expect(rs(85)).toMatchObject({ value: 85, vote: 1 });
    expect(rs(50)).toMatchObject({ value: 50, vote: 0 });
    expect(rs(20)).toMatchObject({ value: 20, vote: -1 });
    expect(rs(null)).toMatchObject({ value: null, vote: 0 });
  });
  it('counts missing evidence as a neutral vote in the score and leaves it out of agreement', () => {
    // 150 bars: too few for the 200-bar trend or a weekly one; no benchmark or rank either.
    const short = series(150, 0.002, 1);
    const r = confluence(input(short, { benchmarkClose: null, higherTimeframe: null }));
    const missing = r.factors.filter((f) => f.value === null).map((f) => f.name);
    expect(missing).toEqual(expect.arrayContaining(['trend', 'relativeStrength', 'higherTimeframe']));
    expect(r.coverage).toBeLessThanOrEqual(0.5);
    expect(r.bars).toBe(150);
  });
});

describe('no look-ahead', () => {
  it('gives the same reading when every bar after asOf is replaced by nonsense', () => {
    const bars = series(N, 0.002, 1);
    const asOf = 1400;
    const poison = (x: Float64Array, value: number) => x.map((v, i) => (i > asOf ? value : v));
    const poisoned: Ohlcv = { ...bars, open: poison(bars.open, 1e6), high: poison(bars.high, 1e6), low: poison(bars.low, 1), close: poison(bars.close, 1), volume: poison(bars.volume, 1e12) };
    const a = confluence(input(bars, { asOf, benchmarkClose: benchmark }));
    const b = confluence(input(poisoned, { asOf, benchmarkClose: poison(benchmark, 1e-6) }));
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('uses only higher-timeframe bars complete by the close of the current bar', () => {
    // Hourly bars 13:30–19:30 UTC on 2023-06-29 and -30; daily bars stamped 00:00 UTC.
    const hourly = Float64Array.from([29, 30].flatMap((d) => [13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 19.5].map((h) => Date.UTC(2023, 5, d) + h * HOUR)));
    const daily = Float64Array.from([27, 28, 29, 30].map((d) => Date.UTC(2023, 5, d)));
    expect(completedHigherBars(daily, hourly, 3)).toBe(2); // mid-session on the 29th: the 27th and 28th are over
    expect(completedHigherBars(daily, hourly, 13)).toBe(3); // last hour of the 30th: that day is not known to be over
    // Daily bars Mon 2023-06-26 .. Mon 07-03; weekly bars stamped Mon 06-19 and 06-26 and 07-03.
    const days = Float64Array.from([26, 27, 28, 29, 30, 33].map((d) => Date.UTC(2023, 5, d)));
    const weeks = Float64Array.from([19, 26, 33].map((d) => Date.UTC(2023, 5, d)));
    expect(completedHigherBars(weeks, days, 4)).toBe(1); // Friday 06-30: only the week of 06-19
    expect(completedHigherBars(weeks, days, 5)).toBe(2); // Monday 07-03: the week of 06-26 is over
  });
});
