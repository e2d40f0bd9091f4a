/**
 * Worker entry point for /api/options/analyze (run by src/pool through
 * piscina): prices a trade's option grid — every (expiry, strike) single leg
 * and the debit spread per expiry — with the analyze kernel.
 */
import { debitSpreads, optionCandidates, type OptionCandidate, type SpreadCandidate, type TradePlan } from '../src/kernels/options/analyze';

export interface OptionGridInput {
  plan: TradePlan;
  strikes: number[];
  expiries: number[];
  spread: { longStrike: number; shortStrike: number };
}

export interface OptionGridOutput {
  candidates: OptionCandidate[];
  spreads: SpreadCandidate[];
}

export function optionGrid({ plan, strikes, expiries, spread }: OptionGridInput): OptionGridOutput {
  return {
    candidates: optionCandidates(plan, strikes, expiries),
    spreads: spread.longStrike === spread.shortStrike ? [] : debitSpreads(plan, spread.longStrike, spread.shortStrike, expiries),
  };
}
