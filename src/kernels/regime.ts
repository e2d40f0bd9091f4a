/**
 * @module kernels/regime
 * The market regime from the benchmark's trend, the universe's breadth and
 * distribution days (William O'Neil, "How to Make Money in Stocks", the "M" of
 * CAN SLIM: a distribution day is an index decline of at least 0.2% on volume
 * above the prior session's; five or more within 25 sessions signal pressure).
 *
 * Points: +1 close above its 50-bar SMA, +1 the 50 above the 200, +1 the 200
 * rising over 21 bars, −2 close below the 200; breadth (share of the universe
 * above its own 50-bar SMA) +1 above 60%, −1 below 40%; −1 for five or more
 * distribution days, −2 for seven or more. `risk_on` at 3 points or more,
 * `risk_off` at 0 or less, `neutral` between. The multiplier scales long
 * scores (1.0 / 0.85 / 0.6) and mirrors for shorts.
 */
import type { MarketRegime, RegimeReading } from '../domain/signal';
import type { ScanIndicatorSet } from './indicators/scan-set';

export const REGIME_MULTIPLIER: Readonly<Record<MarketRegime, number>> = { risk_on: 1, neutral: 0.85, risk_off: 0.6 };

/** IBD distribution days in the `window` sessions ending at `asOf`. */
export function distributionDays(close: Float64Array, volume: Float64Array, asOf: number, window = 25): number {
  let count = 0;
  for (let i = Math.max(1, asOf - window + 1); i <= asOf; i++) {
    if (close[i]! <= close[i - 1]! * 0.998 && volume[i]! > volume[i - 1]!) count++;
  }
  return count;
}

export function marketRegime(bench: { close: Float64Array; volume: Float64Array }, ind: ScanIndicatorSet, asOf: number, breadth: number | null): RegimeReading {
  const c = bench.close[asOf]!;
  const s50 = ind.sma50[asOf]!;
  const s200 = ind.sma200[asOf]!;
  const s200Before = asOf >= 21 ? ind.sma200[asOf - 21]! : NaN;
  const dd = distributionDays(bench.close, bench.volume, asOf);
  let points = 0;
  const reasons: string[] = [];
  const add = (delta: number, text: string) => {
    points += delta;
    reasons.push(`${delta > 0 ? '+' : ''}${delta} ${text}`);
  };
  if (c > s50) add(1, 'benchmark above its 50-day average');
  if (s50 > s200) add(1, '50-day average above the 200-day');
  if (s200 > s200Before) add(1, '200-day average rising');
  if (c < s200) add(-2, 'benchmark below its 200-day average');
  if (breadth !== null && breadth > 0.6) add(1, `breadth ${Math.round(breadth * 100)}% of the universe above its 50-day`);
  if (breadth !== null && breadth < 0.4) add(-1, `breadth only ${Math.round(breadth * 100)}% above the 50-day`);
  if (dd >= 7) add(-2, `${dd} distribution days in 25 sessions`);
  else if (dd >= 5) add(-1, `${dd} distribution days in 25 sessions`);
  const regime: MarketRegime = points >= 3 ? 'risk_on' : points <= 0 ? 'risk_off' : 'neutral';
  const mirror: Record<MarketRegime, MarketRegime> = { risk_on: 'risk_off', neutral: 'neutral', risk_off: 'risk_on' };
  return {
    regime,
    multiplier: REGIME_MULTIPLIER[regime],
    shortMultiplier: REGIME_MULTIPLIER[mirror[regime]],
    points,
    distributionDays: dd,
    breadth,
    reasons,
  };
}
