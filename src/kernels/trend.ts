/**
 * @module kernels/trend
 * A symbol's trend as of a bar: Mark Minervini's trend template ("Trade Like a
 * Stock Market Wizard", 2013, ch. 5: the eight criteria of a Stage 2 uptrend)
 * and a three-way trend regime from the moving-average stack and the 200-bar
 * slope. Reads the indicator set at `asOf` and `asOf − 21` only.
 */
import type { TrendRegime, TrendTemplate } from '../domain/signal';
import type { ScanIndicatorSet } from './indicators/scan-set';

/** Bars over which the 200-bar average must have risen (about a month of sessions). */
const SLOPE_BARS = 21;

/**
 * The eight criteria: (1) close above the 150- and 200-bar SMAs; (2) 150 above
 * 200; (3) the 200 rising for a month; (4) the 50 above the 150 and 200;
 * (5) close above the 50; (6) close ≥ 30% above the 52-week low; (7) close
 * within 25% of the 52-week high; (8) RS rank ≥ 70 (pass `rsRank` null when
 * unknown: the criterion then fails).
 */
export function trendTemplate(close: Float64Array, ind: ScanIndicatorSet, asOf: number, rsRank: number | null): TrendTemplate {
  const c = close[asOf]!;
  const s50 = ind.sma50[asOf]!;
  const s150 = ind.sma150[asOf]!;
  const s200 = ind.sma200[asOf]!;
  const s200Before = asOf >= SLOPE_BARS ? ind.sma200[asOf - SLOPE_BARS]! : NaN;
  const low = ind.low252.at(asOf)!;
  const high = ind.high252.at(asOf)!;
  const checks: [boolean, string][] = [
    [c > s150 && c > s200, 'close above the 150- and 200-day averages'],
    [s150 > s200, '150-day average above the 200-day'],
    [s200 > s200Before, '200-day average rising for a month'],
    [s50 > s150 && s50 > s200, '50-day average above the 150- and 200-day'],
    [c > s50, 'close above the 50-day average'],
    [c >= 1.3 * low, 'close at least 30% above the 52-week low'],
    [c >= 0.75 * high, 'close within 25% of the 52-week high'],
    [rsRank !== null && rsRank >= 70, 'RS rank at least 70'],
  ];
  const failed = checks.filter(([ok]) => !ok).map(([, text]) => text);
  return { passed: failed.length === 0, met: checks.length - failed.length, failed };
}

/**
 * `uptrend`: close > SMA50 > SMA200 with the 200 rising over a month;
 * `downtrend`: close < SMA50 < SMA200 with the 200 falling; else `sideways`
 * (also while the averages are not yet defined).
 */
export function trendRegime(close: Float64Array, ind: ScanIndicatorSet, asOf: number): TrendRegime {
  const c = close[asOf]!;
  const s50 = ind.sma50[asOf]!;
  const s200 = ind.sma200[asOf]!;
  const before = asOf >= SLOPE_BARS ? ind.sma200[asOf - SLOPE_BARS]! : NaN;
  if (c > s50 && s50 > s200 && s200 > before) return 'uptrend';
  if (c < s50 && s50 < s200 && s200 < before) return 'downtrend';
  return 'sideways';
}
