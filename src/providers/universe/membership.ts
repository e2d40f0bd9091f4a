/**
 * @module providers/universe/membership
 * Point-in-time S&P 500 membership (`sp500-membership.csv`, fja05680/sp500,
 * MIT; SOURCES.md beside this file): which tickers were in the index on a
 * given date, so a replay of history scans the index as it was then rather
 * than today's survivors.
 *
 * @example
 * const membership = sp500Membership();
 * membership.isMember('PCG', '2019-01-17'); // => true (removed 2019-01-18)
 * membership.membersOn('2008-01-02').includes('BSC'); // => true (Bear Stearns, removed 2008-06-02)
 */
import membershipCsv from './sp500-membership.csv' with { type: 'text' };

/** One continuous membership: from `start` (inclusive) to `end` (exclusive; null while still a member), YYYY-MM-DD. */
export interface MembershipSpan {
  start: string;
  end: string | null;
}

export interface Membership {
  /** Where the list comes from, for a reader. */
  readonly source: string;
  /** Every ticker with its spans. */
  readonly spans: ReadonlyMap<string, readonly MembershipSpan[]>;
  isMember(ticker: string, date: string): boolean;
  membersOn(date: string): string[];
  /** Tickers that were members at some date in [from, to]. */
  membersBetween(from: string, to: string): string[];
}

export const SP500_MEMBERSHIP_SOURCE = 'fja05680/sp500 sp500_ticker_start_end.csv @58490ec8 (S&P 500 membership 1996-01-02 .. 2025-07-09, MIT)';

/** Parses the committed file (header `ticker,start_date,end_date`). */
export function parseMembership(text: string, source: string): Membership {
  const spans = new Map<string, MembershipSpan[]>();
  for (const line of text.trim().split('\n').slice(1)) {
    const [ticker = '', start = '', end = ''] = line.trim().split(',');
    if (!ticker || !/^\d{4}-\d\d-\d\d$/.test(start)) continue;
    const list = spans.get(ticker) ?? [];
    list.push({ start, end: end === '' ? null : end });
    spans.set(ticker, list);
  }
  const inSpan = (s: MembershipSpan, date: string) => s.start <= date && (s.end === null || date < s.end);
  return {
    source,
    spans,
    isMember: (ticker, date) => (spans.get(ticker) ?? []).some((s) => inSpan(s, date)),
    membersOn: (date) => [...spans].filter(([, list]) => list.some((s) => inSpan(s, date))).map(([t]) => t),
    membersBetween: (from, to) => [...spans].filter(([, list]) => list.some((s) => s.start <= to && (s.end === null || s.end > from))).map(([t]) => t),
  };
}

/** The committed S&P 500 membership. */
export function sp500Membership(): Membership {
  return parseMembership(membershipCsv as string, SP500_MEMBERSHIP_SOURCE);
}
