/**
 * Shared pieces of the synthetic-provider tests: a pinned clock and the
 * textbook statistics the simulator is held to.
 */
import { createSyntheticProvider, type SyntheticProvider } from '../../../src/providers/synthetic';
import type { BarSeries } from '../../../src/providers/types';

/** Friday 2026-11-20 13:00 New York (EST): mid-session. */
export const NOW = Date.UTC(2026, 10, 20, 18, 0);
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export function provider(seed = 42, now = NOW): SyntheticProvider {
  return createSyntheticProvider({ seed, now: () => now });
}

export const isoDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);

/** Close-to-close log returns, leaving out the last (possibly partial) bar. */
export function logReturns(series: BarSeries, dropLast = true): number[] {
  const c = series.close;
  const end = dropLast ? c.length - 1 : c.length;
  const out: number[] = [];
  for (let i = 1; i < end; i++) out.push(Math.log(c[i]! / c[i - 1]!));
  return out;
}

export function mean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s / xs.length;
}

/** Population variance. */
export function variance(xs: ArrayLike<number>): number {
  const m = mean(xs);
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += (xs[i]! - m) ** 2;
  return s / xs.length;
}

/** Excess kurtosis m4 / m2² − 3 (0 for a normal; https://en.wikipedia.org/wiki/Kurtosis). */
export function excessKurtosis(xs: ArrayLike<number>): number {
  const m = mean(xs);
  let m2 = 0;
  let m4 = 0;
  for (let i = 0; i < xs.length; i++) {
    const d = xs[i]! - m;
    m2 += d * d;
    m4 += d * d * d * d;
  }
  m2 /= xs.length;
  m4 /= xs.length;
  return m4 / (m2 * m2) - 3;
}

/** Sample autocorrelation at `lag` (Box & Jenkins, *Time Series Analysis*, eq. 2.1.12). */
export function autocorrelation(xs: ArrayLike<number>, lag: number): number {
  const m = mean(xs);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    const d = xs[i]! - m;
    den += d * d;
    if (i >= lag) num += d * (xs[i - lag]! - m);
  }
  return num / den;
}

/** Pearson correlation over the common prefix. */
export function correlation(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    const x = a[i]! - ma;
    const y = b[i]! - mb;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  return sab / Math.sqrt(saa * sbb);
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}
