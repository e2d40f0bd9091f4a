/**
 * @module modules/options/service
 * /api/options/analyze: a breakout trade (trigger, target, stop) turned into
 * option choices. Candidates: calls for a long, puts for a short, at the
 * listed strikes one step below, at and above the trigger and at the target,
 * for the given expiry, half of it and twice it; plus the debit spread from
 * the trigger strike to the target strike. Priced in the worker pool
 * (kernels/options/analyze). Prices are per share (× 100 per contract).
 *
 * The recommendation, in order:
 * 1. **Stock** when the chance of touching the target before the longest
 *    expiry considered is under 25% — the options would likely expire before
 *    the move.
 * 2. **Vertical debit spread** when premium is dear — IV rank ≥ 50, or an
 *    earnings report before the main expiry (IV crush) — and the spread's
 *    reward/risk is at least 1: its short leg at the target sells premium back,
 *    and the cap above the target costs little for a plan that exits there.
 * 3. **Long call/put** (the best reward/risk among the single legs) when it
 *    beats both 1 and the stock's reward/risk.
 * 4. The spread when it beats the stock; otherwise **stock**.
 */
import { round as roundTo, roundOrNull as roundOrNullTo } from '../../kernels/round';
import { AppError } from '../../errors';
import { medianTimeToLevel, tradeProbabilities, type OptionCandidate, type SpreadCandidate, type TradePlan } from '../../kernels/options/analyze';
import { nearestStrike, strikeIncrement } from '../../kernels/options/strikes';
import { newYorkDate } from '../../providers/new-york-time';
import type { MarketData } from '../../market-data';
import type { KernelPool } from '../../pool';
import { IV_RANK_DEAR, type AnalyzeQuery } from './model';

/** Below this chance of touching the target before the longest expiry, options are not recommended. */
export const MIN_TOUCH_PROBABILITY = 0.25;
/** Figures are served at 4 decimals unless said otherwise. */
const round = (x: number, d = 4) => roundTo(x, d);
const roundOrNull = (x: number | null, d = 4) => roundOrNullTo(x, d);
const DAY_MS = 86_400_000;

/** The analysis inputs: the route's query with its defaults applied. */
export type AnalyzeParams = AnalyzeQuery;

/** The effective plan, or a 400 naming the inconsistency. */
export function tradePlan(p: AnalyzeParams): { plan: TradePlan; stopDefaulted: boolean; expiryDays: number; ivRank: number | null } {
  const { direction } = p;
  const long = direction === 'long';
  const { trigger, target } = p;
  if (long && !(target > trigger)) throw new AppError('invalid_parameter', `For a long, 'target' (${target}) must be above 'trigger' (${trigger})`);
  if (!long && !(target < trigger)) throw new AppError('invalid_parameter', `For a short, 'target' (${target}) must be below 'trigger' (${trigger})`);
  const stopDefaulted = p.stop === undefined;
  const stop = p.stop ?? trigger - (target - trigger) / 2;
  if (long && !(stop < trigger)) throw new AppError('invalid_parameter', `For a long, 'stop' (${stop}) must be below 'trigger' (${trigger})`);
  if (!long && !(stop > trigger)) throw new AppError('invalid_parameter', `For a short, 'stop' (${stop}) must be above 'trigger' (${trigger})`);
  if (!(stop > 0)) throw new AppError('invalid_parameter', `'stop' must be positive; the default (half the target distance below the trigger) is ${round(stop, 2)} — pass a stop`);
  return { plan: { direction, trigger, target, stop, iv: p.iv, rate: p.r }, stopDefaulted, expiryDays: p.expiryDays, ivRank: p.ivRank ?? null };
}

/** Listed strikes one step below, at and above the trigger, and at the target. */
export function candidateStrikes(trigger: number, target: number): number[] {
  const step = strikeIncrement(trigger);
  const atTrigger = nearestStrike(trigger, trigger);
  const set = new Set([atTrigger - step, atTrigger, atTrigger + step, nearestStrike(target, trigger)].filter((k) => k > 0).map((k) => round(k, 2)));
  return [...set].sort((a, b) => a - b);
}

export function candidateExpiries(expiryDays: number): number[] {
  return [...new Set([Math.max(1, Math.round(expiryDays / 2)), expiryDays, Math.min(1095, expiryDays * 2)])].sort((a, b) => a - b);
}

/** The next earnings report within the longest expiry, when the provider knows report dates. */
async function earningsBefore(marketData: MarketData, symbol: string, today: string, days: number) {
  const { provider } = marketData;
  let dates: string[] | null = null;
  if (provider.capabilities.has('earnings') && provider.earnings) dates = (await marketData.capability('earnings')(symbol)).map((e) => e.date);
  else if (provider.earningsDates) dates = provider.earningsDates(symbol);
  if (dates === null) return { known: false as const };
  const next = dates.filter((d) => d > today).sort()[0];
  if (!next) return { known: true as const, next: null };
  const daysAway = Math.round((Date.parse(next) - Date.parse(today)) / DAY_MS);
  return { known: true as const, next: daysAway <= days ? { date: next, daysAway } : null };
}

const leg = (c: OptionCandidate) => ({
  type: c.kind,
  strike: c.strike,
  expiryDays: c.expiryDays,
  price: round(c.greeks.price),
  delta: round(c.greeks.delta),
  gamma: round(c.greeks.gamma, 6),
  vega: round(c.greeks.vega),
  thetaPerDay: round(c.greeks.thetaPerDay),
  rho: round(c.greeks.rho),
  valueAtTarget: round(c.valueAtTarget),
  valueAtStop: round(c.valueAtStop),
  reward: round(c.reward),
  risk: round(c.risk),
  rewardRisk: roundOrNull(c.rewardRisk, 3),
  breakeven: round(c.breakeven),
  probabilityBeyondBreakeven: round(c.probabilityBeyondBreakeven),
  evaluatedAtDays: round(c.evaluatedAtDays, 1),
});

const spreadOf = (s: SpreadCandidate) => ({
  type: `${s.kind}_debit_spread`,
  longStrike: s.longStrike,
  shortStrike: s.shortStrike,
  expiryDays: s.expiryDays,
  cost: round(s.cost),
  maxValue: round(s.maxValue),
  valueAtTarget: round(s.valueAtTarget),
  valueAtStop: round(s.valueAtStop),
  reward: round(s.reward),
  risk: round(s.risk),
  rewardRisk: roundOrNull(s.rewardRisk, 3),
  breakeven: round(s.breakeven),
  evaluatedAtDays: round(s.evaluatedAtDays, 1),
});

const better = (a: number | null, b: number | null) => (a ?? -Infinity) > (b ?? -Infinity);

export async function analyzeOptions(marketData: MarketData, pool: KernelPool, params: AnalyzeParams) {
  const { plan, stopDefaulted, expiryDays, ivRank } = tradePlan(params);
  await marketData.instrument(params.symbol);
  const quote = await marketData.snapshot(params.symbol);
  const today = newYorkDate(Date.parse(quote.ts));
  const strikes = candidateStrikes(plan.trigger, plan.target);
  const expiries = candidateExpiries(expiryDays);
  const longStrike = nearestStrike(plan.trigger, plan.trigger);
  const shortStrike = nearestStrike(plan.target, plan.trigger);
  const grid = await pool.run('optionGrid', { plan, strikes, expiries, spread: { longStrike, shortStrike } });
  const tHalfDays = medianTimeToLevel(plan.trigger, plan.target, plan.iv) * 365;
  const earnings = await earningsBefore(marketData, params.symbol, today, Math.max(...expiries));
  const crush = earnings.known && earnings.next ? earnings.next : null;
  const crushMain = crush !== null && crush.daysAway <= expiryDays;

  const stockReward = Math.abs(plan.target - plan.trigger);
  const stockRisk = Math.abs(plan.trigger - plan.stop);
  const stockRR = stockReward / stockRisk;
  const best = grid.candidates.filter((c) => c.expiryDays >= Math.min(expiryDays, tHalfDays)).reduce<OptionCandidate | null>((a, c) => (a === null || better(c.rewardRisk, a.rewardRisk) ? c : a), null);
  const spread = grid.spreads.find((s) => s.expiryDays === expiryDays) ?? null;
  const reasoning: string[] = [`Median time to reach the target: ${round(tHalfDays, 1)} days at ${round(plan.iv * 100, 1)}% volatility (driftless first passage).`];
  const dear = (ivRank !== null && ivRank >= IV_RANK_DEAR) || crushMain;
  let recommendation: Record<string, unknown>;
  const longest = Math.max(...expiries);
  const reachLongest = tradeProbabilities(plan, longest / 365).touchTarget;
  if (reachLongest < MIN_TOUCH_PROBABILITY) {
    reasoning.push(`The chance of touching the target within the longest expiry considered (${longest} days) is ${round(reachLongest * 100, 1)}% (< ${MIN_TOUCH_PROBABILITY * 100}%): options would likely decay before the move, so the stock carries the idea.`);
    recommendation = { strategy: 'stock', rewardRisk: round(stockRR, 3) };
  } else if (dear && spread && (spread.rewardRisk ?? 0) >= 1) {
    if (ivRank !== null && ivRank >= IV_RANK_DEAR) reasoning.push(`IV rank ${ivRank} ≥ ${IV_RANK_DEAR}: premium is dear; the short leg at the target sells part of it back.`);
    if (crushMain) reasoning.push(`Earnings on ${crush!.date} fall before the ${expiryDays}-day expiry: implied volatility usually collapses after the report, which hurts a long option more than a spread.`);
    reasoning.push(`The ${spread.longStrike}/${spread.shortStrike} ${spread.kind} debit spread costs ${round(spread.cost, 2)} for a reward/risk of ${round(spread.rewardRisk!, 2)}; its cap sits at the target the plan exits at anyway.`);
    recommendation = { strategy: 'vertical_debit_spread', legs: spreadOf(spread), rewardRisk: round(spread.rewardRisk!, 3) };
  } else if (best && (best.rewardRisk ?? 0) >= Math.max(1, stockRR)) {
    reasoning.push(`The ${best.strike} ${best.kind} (${best.expiryDays} days) has the best reward/risk of the single legs, ${round(best.rewardRisk!, 2)}, above the stock's ${round(stockRR, 2)}, with the loss limited to its premium ${round(best.greeks.price, 2)}.`);
    if (ivRank !== null) reasoning.push(`IV rank ${ivRank} < ${IV_RANK_DEAR}: buying premium is reasonably priced.`);
    recommendation = { strategy: best.kind === 'call' ? 'long_call' : 'long_put', contract: leg(best), rewardRisk: round(best.rewardRisk!, 3) };
  } else if (spread && better(spread.rewardRisk, stockRR)) {
    reasoning.push(`No single leg beats the stock's reward/risk ${round(stockRR, 2)}; the ${spread.longStrike}/${spread.shortStrike} debit spread does (${round(spread.rewardRisk!, 2)}).`);
    recommendation = { strategy: 'vertical_debit_spread', legs: spreadOf(spread), rewardRisk: round(spread.rewardRisk!, 3) };
  } else {
    reasoning.push(`Neither a single option nor the spread beats the stock's reward/risk of ${round(stockRR, 2)}.`);
    recommendation = { strategy: 'stock', rewardRisk: round(stockRR, 3) };
  }
  if (crush && !crushMain) reasoning.push(`Earnings on ${crush.date} fall before the longer expiries considered (IV crush risk there).`);
  if (!earnings.known) reasoning.push('The data source has no earnings dates, so an IV crush could not be checked.');

  return {
    symbol: params.symbol,
    direction: plan.direction,
    recommendation: { ...recommendation, reasoning },
    inputs: { trigger: plan.trigger, target: plan.target, stop: plan.stop, stopDefaulted, iv: plan.iv, ivRank, expiryDays, r: plan.rate, price: quote.price, priceAt: quote.ts, strikes, expiries, perContractMultiplier: 100 },
    expectedTimeToTarget: { days: round(tHalfDays, 1), method: 'median first-passage time of a driftless lognormal price: (|ln(target/trigger)| ÷ (σ · 0.6745))² years' },
    probabilities: Object.fromEntries(Object.entries(tradeProbabilities(plan, expiryDays / 365)).map(([k, v]) => [k, round(v)])),
    stock: { reward: round(stockReward), risk: round(stockRisk), rewardRisk: round(stockRR, 3) },
    candidates: grid.candidates.map(leg),
    spreads: grid.spreads.map(spreadOf),
    ivCrush: crush ? { earningsDate: crush.date, daysAway: crush.daysAway, affectsExpiries: expiries.filter((e) => e >= crush.daysAway), warning: `Earnings on ${crush.date} (${crush.daysAway} days) fall before expiry: implied volatility typically drops sharply after the report (IV crush).` } : null,
  };
}
