/**
 * @module kernels/confluence
 * How far independent pieces of evidence agree on the direction of the next
 * move, as of one bar. Each factor votes +1 (bullish), 0 or −1 (bearish):
 *
 * | factor | weight | rule (`L` = the lookback window in bars) | source |
 * |---|---|---|---|
 * | trend | 0.25 | `trendRegime` (close vs 50- and 200-bar SMAs, 200 rising or falling over 21 bars): up +1, down −1; value = the 200's change, % | kernels/trend (Minervini's moving-average stack) |
 * | momentum | 0.15 | RSI(14) above 55 (below 45) and the MACD(12/26/9) histogram's sign or 1-bar slope the same way → +1 (−1); value = RSI | Wilder 1978 (RSI; the 45–55 dead band round his 50 midline is this kernel's, to keep noise out); Appel 2005 (MACD); Elder 2002, "Come Into My Trading Room" (the histogram's slope, his Impulse System) |
 * | volume | 0.15 | over `L` bars, z = (up-volume − down-volume) ÷ √Σ volume²: ≥ 1 → +1, ≤ −1 → −1, unless accumulation days lead distribution days by 2 or more the other way (then 0); value = up-volume share, % | O'Neil, "How to Make Money in Stocks": a distribution day closes ≥ 0.2% lower on volume above the prior bar's, an accumulation day the mirror (as kernels/regime) |
 * | volatilityContraction | 0.10 | Bollinger width (20, 2σ) at or below the 20th percentile of 126 bars is coiled and votes the trend's way; value = the percentile | Bollinger, "Bollinger on Bollinger Bands" (2001), the Squeeze |
 * | relativeStrength | 0.15 | RS line (close ÷ benchmark) over `L` bars: +1 when z = Σ d ÷ √Σ d² ≥ 1 (d its 1-bar log changes) or it closes at the window's high, −1 mirrored; value = its change, %. Without a benchmark: RS rank ≥ 70 → +1, ≤ 30 → −1 | O'Neil's RS line and its new highs; rank as kernels/rs-rank |
 * | higherTimeframe | 0.10 | `trendRegime` of the higher timeframe's last completed bar: up +1, down −1; value = its 200's change, % | Elder, "Trading for a Living" (1993), Triple Screen: trade with the longer timeframe's tide |
 * | activePatterns | 0.10 | live setups from the scan at `asOf` (a range still forming left out: it has no side until it breaks): net = Σ ±finalScore ÷ Σ finalScore (long +, short −); ≥ 0.2 → +1, ≤ −0.2 → −1; value = net × 100 | kernels/scan |
 *
 * Both z's are self-normalised sums, which under the null of symmetric,
 * directionless changes are about standard normal (B. Efron, "Student's
 * t-test under symmetry conditions", JASA 64, 1969): a vote needs a move of
 * about one standard error, so pure noise votes on a third of windows at most
 * instead of on nearly every one, as a bare sign would.
 *
 * ```
 * score     = 100 × Σ weight × vote            (weights sum to 1; −100..100, 1 decimal)
 * direction = bullish at score ≥ 30, bearish at ≤ −30, neutral between: above the largest
 *             weight, so no single factor sets the direction
 * agreement = Σ weight of factors with evidence voting with the direction (+1 when bullish,
 *             −1 when bearish, 0 when neutral) ÷ Σ weight of factors with evidence; 0 with none
 * coverage  = Σ weight of factors with evidence
 * ```
 *
 * A factor without evidence (too little history, no volume, no benchmark and
 * no rank, no higher timeframe, no live setup) has `value: null` and votes 0:
 * it still holds its weight in the score, so missing evidence pulls towards
 * neutral (as missing components do in kernels/scoring), and it is left out of
 * `agreement`.
 *
 * Lookback: only volume and relative strength are windowed; the other factors
 * have windows fixed by their definitions. `lookback` must be an integer ≥ 1
 * (else `RangeError`); one longer than the `asOf` bars of history before the
 * current bar is clamped to them, and the windowed factors' details say so.
 *
 * No look-ahead: indicators are computed over a view of bars `0..asOf`; the
 * benchmark is read at `asOf − L..asOf`; of the higher timeframe only bars
 * complete by the close of bar `asOf` are used ({@link completedHigherBars}),
 * so a caller may pass whole histories. Nothing is allocated per bar beyond
 * `computeIndicators` (and the scan's own lifecycle replay).
 *
 * @example
 * const c = confluence({ bars: nvda, benchmarkClose: spyAligned, higherTimeframe: null, asOf, lookback: 50, rsRank: null });
 * c.direction; // => 'bullish' for NVDA on 2023-06-30
 */
import { computeIndicators } from './indicators';
import type { IndicatorSet } from './indicators/set';
import { headBars, type Ohlcv } from './ohlcv';
import { round } from './round';
import { scanWithIndicators } from './scan';
import type { TrendRegime } from '../domain/signal';
import { trendRegime } from './trend';

export const CONFLUENCE_WEIGHTS = {
  trend: 0.25,
  momentum: 0.15,
  volume: 0.15,
  volatilityContraction: 0.1,
  relativeStrength: 0.15,
  higherTimeframe: 0.1,
  activePatterns: 0.1,
} as const;

/** |score| at which the direction stops being neutral. */
export const DIRECTION_THRESHOLD = 30;

export type ConfluenceFactorName = keyof typeof CONFLUENCE_WEIGHTS;
export type Vote = -1 | 0 | 1;
export type ConfluenceDirection = 'bullish' | 'bearish' | 'neutral';

export interface ConfluenceFactor {
  name: ConfluenceFactorName;
  /** The number the vote rests on (see the table), or null without evidence. */
  value: number | null;
  vote: Vote;
  weight: number;
  detail: string;
}

export interface ConfluenceInput {
  bars: Ohlcv;
  /** Benchmark closes aligned by index with `bars` (NaN where it has no bar), or null. */
  benchmarkClose: Float64Array | null;
  /** A coarser series of the same symbol (daily under 1h/4h, weekly under daily), or null. */
  higherTimeframe: Ohlcv | null;
  asOf: number;
  /** Bars in the window of the windowed factors; integer ≥ 1. */
  lookback: number;
  /** The symbol's RS rank 1–99 in its universe, or null. */
  rsRank: number | null;
}

export interface ConfluenceResult {
  score: number;
  direction: ConfluenceDirection;
  agreement: number;
  coverage: number;
  factors: ConfluenceFactor[];
  /** Bars read: `asOf + 1`. */
  bars: number;
  /** The window the windowed factors used: `min(lookback, asOf)`. */
  lookback: number;
  asOf: number;
}

/** Bars of the 200-bar SMA's slope (about a month of sessions), as in kernels/trend. */
const SLOPE_BARS = 21;
/** Bars before `trendRegime` can be anything but sideways: 200 for the SMA, 21 for its slope. */
const TREND_BARS = 200 + SLOPE_BARS;

const sign = (x: number): Vote => (x > 0 ? 1 : x < 0 ? -1 : 0);
const signed = (x: number, digits: number) => `${x > 0 ? '+' : ''}${x.toFixed(digits)}`;
const regimeVote = (regime: TrendRegime): Vote => (regime === 'uptrend' ? 1 : regime === 'downtrend' ? -1 : 0);
const when = (ts: number) => new Date(ts).toISOString().replace('T00:00:00.000Z', '').replace(/:00\.000Z$/, 'Z');

type Reading = Omit<ConfluenceFactor, 'name' | 'weight'>;
const none = (detail: string): Reading => ({ value: null, vote: 0, detail });

function trendFactor(close: Float64Array, ind: IndicatorSet, asOf: number, regime: TrendRegime): Reading {
  const slope = asOf >= SLOPE_BARS ? (ind.sma200[asOf]! / ind.sma200[asOf - SLOPE_BARS]! - 1) * 100 : NaN;
  if (!Number.isFinite(slope)) return none(`needs ${TREND_BARS} bars with closes for the 200-bar average and its one-month slope; has ${asOf + 1}`);
  const detail = `${regime}: close ${close[asOf]!.toFixed(2)}, 50-bar SMA ${ind.sma50[asOf]!.toFixed(2)}, 200-bar SMA ${ind.sma200[asOf]!.toFixed(2)} (${signed(slope, 1)}% over ${SLOPE_BARS} bars)`;
  return { value: round(slope, 2), vote: regimeVote(regime), detail };
}

function momentumFactor(ind: IndicatorSet, asOf: number): Reading {
  const rsi = ind.rsi14[asOf]!;
  const histogram = ind.macdHistogram[asOf]!;
  const change = asOf > 0 ? histogram - ind.macdHistogram[asOf - 1]! : NaN;
  if (!(Number.isFinite(rsi) && Number.isFinite(change))) return none(`needs 35 bars for RSI(14) and the MACD(12/26/9) histogram's slope; has ${asOf + 1}`);
  const side: Vote = rsi > 55 ? 1 : rsi < 45 ? -1 : 0;
  const vote: Vote = side !== 0 && (sign(histogram) === side || sign(change) === side) ? side : 0;
  const detail = `RSI(14) ${rsi.toFixed(1)}, MACD histogram ${signed(histogram, 3)} and ${change > 0 ? 'rising' : change < 0 ? 'falling' : 'flat'} (${signed(change, 3)} on the bar)`;
  return { value: round(rsi, 2), vote, detail };
}

function volumeFactor(bars: Ohlcv, asOf: number, window: number, clampNote: string): Reading {
  const { close, volume } = bars;
  let up = 0;
  let down = 0;
  let squares = 0;
  let accumulation = 0;
  let distribution = 0;
  for (let i = asOf - window + 1; i <= asOf; i++) {
    const c = close[i]!;
    const p = close[i - 1]!;
    const v = volume[i]!;
    if (!(v >= 0)) continue;
    if (c > p) up += v;
    else if (c < p) down += v;
    else continue; // unchanged, or a missing close
    squares += v * v;
    if (v > volume[i - 1]!) {
      if (c >= p * 1.002) accumulation++;
      else if (c <= p * 0.998) distribution++;
    }
  }
  if (!(squares > 0)) return none(`no volume on up or down bars in the last ${window} bars${clampNote}`);
  const z = (up - down) / Math.sqrt(squares);
  const flow: Vote = z >= 1 ? 1 : z <= -1 ? -1 : 0;
  const lead = accumulation - distribution;
  const vetoed = flow !== 0 && lead * flow <= -2;
  const detail = `up-volume ${((100 * up) / (up + down)).toFixed(1)}% of up+down volume over ${window} bars (z ${signed(z, 2)}), ${accumulation} accumulation vs ${distribution} distribution days${vetoed ? ' (against the volume, so no vote)' : ''}${clampNote}`;
  return { value: round((100 * up) / (up + down), 2), vote: vetoed ? 0 : flow, detail };
}

function volatilityFactor(ind: IndicatorSet, asOf: number, regime: TrendRegime): Reading {
  const percentile = ind.bbWidthPercentile[asOf]!;
  if (!Number.isFinite(percentile)) return none(`needs 145 bars for the Bollinger width's 126-bar percentile; has ${asOf + 1}`);
  const coiled = percentile <= 20;
  const vote = coiled ? regimeVote(regime) : 0;
  const reading = !coiled ? 'not coiled (a squeeze is at or below the 20th)' : regime === 'sideways' ? 'coiled, but with no trend to lean on' : `coiled, leaning with the ${regime}`;
  return { value: round(percentile, 2), vote, detail: `Bollinger width (20, 2σ) at the ${percentile.toFixed(0)}th percentile of 126 bars: ${reading}` };
}

function rankReading(rsRank: number | null, why: string): Reading {
  if (rsRank === null) return none(`${why} and no RS rank`);
  const vote: Vote = rsRank >= 70 ? 1 : rsRank <= 30 ? -1 : 0;
  return { value: rsRank, vote, detail: `RS rank ${rsRank} in its universe (${why})` };
}

function relativeStrengthFactor(close: Float64Array, benchmark: Float64Array | null, asOf: number, window: number, rsRank: number | null, clampNote: string): Reading {
  if (benchmark === null) return rankReading(rsRank, 'no benchmark given');
  const rs = (i: number) => (benchmark[i]! > 0 ? close[i]! / benchmark[i]! : NaN);
  const now = rs(asOf);
  const then = rs(asOf - window);
  if (window === 0 || !(now > 0 && then > 0)) return rankReading(rsRank, `no benchmark close at both ends of the ${window}-bar window`);
  let high = then;
  let low = then;
  let sum = 0;
  let squares = 0;
  for (let i = asOf - window + 1; i <= asOf; i++) {
    const x = rs(i);
    const d = Math.log(x / rs(i - 1));
    if (d - d === 0) {
      sum += d;
      squares += d * d;
    }
    if (i < asOf && x > high) high = x;
    if (i < asOf && x < low) low = x;
  }
  const z = squares > 0 ? sum / Math.sqrt(squares) : 0;
  const change = (now / then - 1) * 100;
  const atHigh = now > high || (now === high && now > low);
  const atLow = now < low || (now === low && now < high);
  const vote: Vote = z >= 1 || atHigh ? 1 : z <= -1 || atLow ? -1 : 0;
  const extreme = atHigh ? ', at its high of the window' : atLow ? ', at its low of the window' : '';
  return { value: round(change, 2), vote, detail: `RS line vs the benchmark ${signed(change, 1)}% over ${window} bars (z ${signed(z, 2)})${extreme}${clampNote}` };
}

/** Smallest positive gap between the timestamps of the up to 20 bars ending at `last`; 0 with one bar. */
function barSpacing(ts: Float64Array, last: number): number {
  let gap = Infinity;
  for (let i = Math.max(1, last - 19); i <= last; i++) {
    const d = ts[i]! - ts[i - 1]!;
    if (d > 0 && d < gap) gap = d;
  }
  return gap === Infinity ? 0 : gap;
}

/**
 * How many leading bars of the higher timeframe are complete by the close of
 * bar `asOf`: a bar opened at `T` with spacing `P` ends at `T + P`, and bar
 * `asOf` ends at `ts[asOf] + p`. So under 1h bars today's daily bar is left
 * out until the next day, and under daily bars this week's bar until the next
 * week. Spacings are the smallest gaps among the last 20 bars already open.
 * @example
 * // 1h bar at 2023-06-30 14:00Z; daily bars dated 06-28, 06-29, 06-30 (00:00Z)
 * completedHigherBars(daily.ts, hourly.ts, asOf); // => 2 (the 06-30 day is not over)
 */
export function completedHigherBars(higherTs: Float64Array, ts: Float64Array, asOf: number): number {
  const now = ts[asOf]!;
  let open = 0;
  while (open < higherTs.length && higherTs[open]! <= now) open++;
  const spacing = barSpacing(higherTs, open - 1);
  const end = now + barSpacing(ts, asOf);
  while (open > 0 && higherTs[open - 1]! + spacing > end) open--;
  return open;
}

function higherTimeframeFactor(higher: Ohlcv | null, ts: Float64Array, asOf: number, regime: TrendRegime): Reading {
  if (higher === null) return none('no higher-timeframe bars given');
  const n = completedHigherBars(higher.ts, ts, asOf);
  if (n < TREND_BARS) return none(`needs ${TREND_BARS} completed higher-timeframe bars for its trend regime; has ${n}`);
  const view = headBars(higher, n);
  const ind = computeIndicators(view);
  const last = n - 1;
  const slope = (ind.sma200[last]! / ind.sma200[last - SLOPE_BARS]! - 1) * 100;
  if (!Number.isFinite(slope)) return none(`the higher timeframe's 200-bar average is undefined at its bar of ${when(view.ts[last]!)} (a missing close)`);
  const higherRegime = trendRegime(view.close, ind, last);
  const vote = regimeVote(higherRegime);
  const relation = vote !== 0 && vote === regimeVote(regime) ? 'agrees with' : higherRegime === regime ? 'matches' : 'differs from';
  const detail = `higher timeframe ${higherRegime} as of its bar of ${when(view.ts[last]!)} (200-bar SMA ${signed(slope, 1)}% over ${SLOPE_BARS} bars); ${relation} this timeframe's ${regime}`;
  return { value: round(slope, 2), vote, detail };
}

function activePatternsFactor(bars: Ohlcv, ind: IndicatorSet, asOf: number, rsRank: number | null): Reading {
  // a range still forming has no side yet: its breakout and breakdown are the two exits of one box, and the scan lists
  // whichever side's stop the close has not passed, so only a range that broke votes
  const findings = scanWithIndicators(bars, ind, { asOf, rsRank, regime: null }).filter((f) => !(f.match.patternFamily === 'range' && f.state === 'forming'));
  if (findings.length === 0) return none('no live setup at this bar');
  let net = 0;
  let total = 0;
  for (const f of findings) {
    net += (f.match.direction === 'long' ? 1 : -1) * f.score.finalScore;
    total += f.score.finalScore;
  }
  const balance = total > 0 ? net / total : findings.reduce((a, f) => a + (f.match.direction === 'long' ? 1 : -1), 0) / findings.length;
  const vote: Vote = balance >= 0.2 ? 1 : balance <= -0.2 ? -1 : 0;
  const listed = [...findings]
    .sort((a, b) => b.score.finalScore - a.score.finalScore)
    .map((f) => `${f.match.patternType} ${f.match.direction} ${f.state} (score ${f.score.finalScore})`);
  return { value: round(balance * 100, 2), vote, detail: `${findings.length} live setup${findings.length > 1 ? 's' : ''}: ${listed.join(', ')}; net ${signed(balance * 100, 0)}` };
}

/**
 * The confluence of the evidence at bar `asOf` (see the module comment for the rules).
 * @throws {RangeError} on a `lookback` that is not an integer ≥ 1, an `asOf` outside the bars,
 *   a benchmark of another length than the bars, or an RS rank outside 1–99.
 */
export function confluence(input: ConfluenceInput): ConfluenceResult {
  const { bars, benchmarkClose, higherTimeframe, asOf, lookback, rsRank } = input;
  const n = bars.close.length;
  if (!Number.isInteger(lookback) || lookback < 1) throw new RangeError(`confluence: lookback must be an integer of at least 1, got ${lookback}`);
  if (!Number.isInteger(asOf) || asOf < 0 || asOf >= n) throw new RangeError(`confluence: asOf must be a bar index in 0..${n - 1}, got ${asOf}`);
  if (bars.ts.length !== n) throw new RangeError(`confluence: ts has ${bars.ts.length} values, close ${n}`);
  if (benchmarkClose !== null && benchmarkClose.length !== n) {
    throw new RangeError(`confluence: benchmark has ${benchmarkClose.length} closes, bars ${n}; align them by date first`);
  }
  if (rsRank !== null && !(rsRank >= 1 && rsRank <= 99)) throw new RangeError(`confluence: rsRank must be within 1..99, got ${rsRank}`);

  const view = headBars(bars, asOf + 1);
  const ind = computeIndicators(view);
  const window = Math.min(lookback, asOf);
  const clampNote = window < lookback ? ` (lookback ${lookback} clamped to the ${asOf} bars of history before this one)` : '';
  const regime = trendRegime(view.close, ind, asOf);

  const readings: Record<ConfluenceFactorName, Reading> = {
    trend: trendFactor(view.close, ind, asOf, regime),
    momentum: momentumFactor(ind, asOf),
    volume: volumeFactor(view, asOf, window, clampNote),
    volatilityContraction: volatilityFactor(ind, asOf, regime),
    relativeStrength: relativeStrengthFactor(view.close, benchmarkClose, asOf, window, rsRank, clampNote),
    higherTimeframe: higherTimeframeFactor(higherTimeframe, view.ts, asOf, regime),
    activePatterns: activePatternsFactor(view, ind, asOf, rsRank),
  };
  const factors = (Object.keys(CONFLUENCE_WEIGHTS) as ConfluenceFactorName[]).map(
    (name): ConfluenceFactor => ({ name, weight: CONFLUENCE_WEIGHTS[name], ...readings[name] }),
  );

  let total = 0;
  let sum = 0;
  let covered = 0;
  for (const f of factors) {
    total += f.weight;
    sum += f.weight * f.vote;
    if (f.value !== null) covered += f.weight;
  }
  const score = round((100 * sum) / total, 1);
  const direction: ConfluenceDirection = score >= DIRECTION_THRESHOLD ? 'bullish' : score <= -DIRECTION_THRESHOLD ? 'bearish' : 'neutral';
  const side = direction === 'bullish' ? 1 : direction === 'bearish' ? -1 : 0;
  let agreeing = 0;
  for (const f of factors) if (f.value !== null && f.vote === side) agreeing += f.weight;
  return {
    score,
    direction,
    agreement: covered > 0 ? round(agreeing / covered, 2) : 0,
    coverage: round(covered / total, 2),
    factors,
    bars: asOf + 1,
    lookback: window,
    asOf,
  };
}
