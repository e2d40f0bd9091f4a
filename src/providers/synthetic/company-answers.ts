/**
 * @module providers/synthetic/company-answers
 * The synthetic provider's alternative-data answers (earnings, float, insider
 * transactions, short interest, filings, social, option chains) over one
 * company's state: its profile, its daily bars to the clock and the New York
 * date. provider.ts gathers that state (`company`) and hands it here; the
 * series themselves are drawn in fundamentals, altdata and options.
 */
import type { BarSeries, EarningsEvent, Filing, FloatData, InsiderTransaction, OptionChain, ShortInterestReport, Snapshot, SocialDay } from '../types';
import { filingsOf, insiderTransactions, socialDays } from './altdata';
import { earningsDatesOf } from './earnings';
import { earningsEvents, shareCounts, shortInterestReports } from './fundamentals';
import { optionChain } from './options';
import type { SymbolProfile } from './profile';

/** A company's profile, its daily bars to the clock (a live session included), the New York date and the clock. */
export interface Company {
  profile: SymbolProfile;
  bars: BarSeries;
  today: string;
  now: number;
}

export function companyEarnings({ profile, bars, today }: Company): EarningsEvent[] {
  return earningsEvents(profile, bars, today);
}

export function companyFloat({ profile, today }: Company): FloatData {
  return shareCounts(profile, today);
}

/** Transactions dated in `range` and filed by today, newest first. */
export function companyInsiders({ profile, bars, today }: Company, range: { from: string; to: string }): InsiderTransaction[] {
  const to = range.to < today ? range.to : today;
  return insiderTransactions(profile, bars)
    .filter((t) => t.transactionDate >= range.from && t.transactionDate <= to && t.filingDate <= today)
    .reverse();
}

/** None for a fund. */
export function companyShortInterest({ profile, bars, today }: Company): ShortInterestReport[] {
  const shares = shareCounts(profile, today);
  if (profile.kind !== 'stock') return [];
  return shortInterestReports(profile, bars, shares.freeFloat ?? shares.sharesOutstanding ?? 0, today);
}

export function companyFilings({ profile, bars, today }: Company, limit: number): Filing[] {
  return filingsOf(profile, insiderTransactions(profile, bars), today).slice(0, limit);
}

export function companySocial({ profile, bars, today }: Company, days: number): SocialDay[] {
  return socialDays(profile, bars, today, days);
}

/** The chain around `quote` (the company's snapshot at its clock), the next report date known ahead. */
export function companyOptionChain({ profile, bars, today }: Company, quote: Snapshot, expiry?: string): OptionChain {
  const next = earningsDatesOf(profile).find((d) => d > today) ?? null;
  return optionChain(profile, bars, quote.price, today, quote.ts, next, expiry);
}
