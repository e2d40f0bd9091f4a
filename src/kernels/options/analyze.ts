/**
 * @module kernels/options/analyze
 * Prices a breakout trade's option candidates: for a trade entered at
 * `trigger` with a `target` and a `stop`, every (expiry, strike) of a long
 * call (a long trade) or a long put (a short trade), and the vertical debit
 * spread from the trigger strike to the target strike, at entry and at the
 * expected time to target, under Black–Scholes at one volatility.
 *
 * **Expected time to target**: the median first-passage time of a driftless
 * log-price `σ W_t` to `b = |ln(target/trigger)|`. By the reflection
 * principle `P(τ ≤ t) = 2 N(−b/(σ√t))` (Shreve, "Stochastic Calculus for
 * Finance II", §3.7.3), so the median solves `N(−b/(σ√t)) = 1/4`:
 * `t½ = (b / (σ z₀.₇₅))²`, `z₀.₇₅ = 0.6744897501960817`.
 * Both the value at target and the value at stop are taken at
 * `min(t½, T)` — a stop is usually hit sooner, which makes its value here a
 * little optimistic; the probabilities below are exact for the model.
 *
 * **Probabilities** (driftless, continuous monitoring): touching the target
 * or the stop before expiry (kernels/options/touch), and reaching the target
 * before the stop, `ln(trigger/stop) ÷ ln(target/stop)` (gambler's ruin for a
 * driftless Brownian motion in log-price).
 */
import { blackScholesGreeks, type Greeks, type OptionKind } from './black-scholes';
import { finishAboveProbability, finishBelowProbability, touchProbability } from './touch';

export type TradeDirection = 'long' | 'short';

export interface TradePlan {
  direction: TradeDirection;
  trigger: number;
  target: number;
  stop: number;
  /** Annualised implied volatility (decimal). */
  iv: number;
  rate: number;
}

/** What a position bought at the trigger is worth with the underlying at the target and at the stop, both at the evaluation time. */
export interface PositionOutcome {
  /** Position value with the underlying at the target, at the evaluation time. */
  valueAtTarget: number;
  valueAtStop: number;
  /** valueAtTarget − cost. */
  reward: number;
  /** cost − valueAtStop. */
  risk: number;
  /** reward ÷ risk (null when the stop costs nothing). */
  rewardRisk: number | null;
  /** Underlying price at expiry where the position breaks even. */
  breakeven: number;
  /** Days after entry at which the values are taken: the expected time to target, or the expiry if sooner. */
  evaluatedAtDays: number;
}

export interface OptionCandidate extends PositionOutcome {
  kind: OptionKind;
  strike: number;
  expiryDays: number;
  greeks: Greeks;
  /** Probability the underlying finishes beyond the breakeven at expiry (above for a call, below for a put; driftless). */
  probabilityBeyondBreakeven: number;
}

export interface SpreadCandidate extends PositionOutcome {
  kind: OptionKind;
  longStrike: number;
  shortStrike: number;
  expiryDays: number;
  cost: number;
  maxValue: number;
}

const Z75 = 0.6744897501960817;
const DAYS = 365;

/** Median first-passage time in years of a driftless log-price with volatility `vol` to `level` from `spot`. */
export function medianTimeToLevel(spot: number, level: number, vol: number): number {
  const b = Math.abs(Math.log(level / spot));
  return (b / (vol * Z75)) ** 2;
}

/** P(reach `target` before `stop`) from `spot` for a driftless log-price. */
export function probabilityTargetFirst(spot: number, target: number, stop: number): number {
  return Math.log(spot / stop) / Math.log(target / stop);
}

/** Touch and order probabilities of the plan over `years`, for a driftless log-price (price drift μ = σ²/2). */
export function tradeProbabilities(plan: TradePlan, years: number) {
  const drift = (plan.iv * plan.iv) / 2;
  return {
    touchTarget: touchProbability(plan.trigger, plan.target, years, plan.iv, drift),
    touchStop: touchProbability(plan.trigger, plan.stop, years, plan.iv, drift),
    targetBeforeStop: probabilityTargetFirst(plan.trigger, plan.target, plan.stop),
  };
}

const kindOf = (direction: TradeDirection): OptionKind => (direction === 'long' ? 'call' : 'put');

function valueAt(kind: OptionKind, spot: number, strike: number, remainingYears: number, plan: TradePlan): number {
  if (remainingYears <= 0) return Math.max(0, kind === 'call' ? spot - strike : strike - spot);
  return blackScholesGreeks(kind, spot, strike, remainingYears, plan.rate, plan.iv).price;
}

/** The outcome of a position bought for `cost`, valued `at` years after entry. */
function positionOutcome(cost: number, valueAtTarget: number, valueAtStop: number, breakeven: number, at: number): PositionOutcome {
  const reward = valueAtTarget - cost;
  const risk = cost - valueAtStop;
  return { valueAtTarget, valueAtStop, reward, risk, rewardRisk: risk > 0 ? reward / risk : null, breakeven, evaluatedAtDays: at * DAYS };
}

/** Single-leg candidates over every expiry and strike, in that order. */
export function optionCandidates(plan: TradePlan, strikes: readonly number[], expiries: readonly number[]): OptionCandidate[] {
  const kind = kindOf(plan.direction);
  const tHalf = medianTimeToLevel(plan.trigger, plan.target, plan.iv);
  const out: OptionCandidate[] = [];
  for (const expiryDays of expiries) {
    const years = expiryDays / DAYS;
    const at = Math.min(tHalf, years);
    for (const strike of strikes) {
      const greeks = blackScholesGreeks(kind, plan.trigger, strike, years, plan.rate, plan.iv);
      const valueAtTarget = valueAt(kind, plan.target, strike, years - at, plan);
      const valueAtStop = valueAt(kind, plan.stop, strike, years - at, plan);
      const breakeven = kind === 'call' ? strike + greeks.price : strike - greeks.price;
      out.push({
        kind,
        strike,
        expiryDays,
        greeks,
        ...positionOutcome(greeks.price, valueAtTarget, valueAtStop, breakeven, at),
        probabilityBeyondBreakeven:
          breakeven <= 0 ? 0 : kind === 'call' ? finishAboveProbability(plan.trigger, breakeven, years, plan.iv) : finishBelowProbability(plan.trigger, breakeven, years, plan.iv),
      });
    }
  }
  return out;
}

/** The debit spread long the strike nearest the trigger, short the one nearest the target, per expiry. */
export function debitSpreads(plan: TradePlan, longStrike: number, shortStrike: number, expiries: readonly number[]): SpreadCandidate[] {
  const kind = kindOf(plan.direction);
  const tHalf = medianTimeToLevel(plan.trigger, plan.target, plan.iv);
  /** The spread's value with the underlying at `spot` and `remainingYears` to expiry. */
  const spreadAt = (spot: number, remainingYears: number) => valueAt(kind, spot, longStrike, remainingYears, plan) - valueAt(kind, spot, shortStrike, remainingYears, plan);
  return expiries.map((expiryDays) => {
    const years = expiryDays / DAYS;
    const at = Math.min(tHalf, years);
    const cost = spreadAt(plan.trigger, years);
    return {
      kind,
      longStrike,
      shortStrike,
      expiryDays,
      cost,
      maxValue: Math.abs(shortStrike - longStrike),
      ...positionOutcome(cost, spreadAt(plan.target, years - at), spreadAt(plan.stop, years - at), kind === 'call' ? longStrike + cost : longStrike - cost, at),
    };
  });
}
