/**
 * @module providers/synthetic/earnings
 * When each synthetic company reports. US issuers file a 10-Q every fiscal
 * quarter, so reports come about every 63 sessions (252 / 4); each company has
 * its own phase inside the quarter and a few sessions of jitter, as real
 * report dates wander a little from year to year. The report is taken to come
 * before the open, so the whole surprise shows as that session's opening gap.
 *
 * The schedule is a function of (seed, symbol) and the calendar only — not of
 * the price path — so upcoming dates are known in advance, as announced dates
 * are, up to the calendar's last year.
 *
 * @example
 * earningsSessionIndices(symbolProfile(42, aapl), 300); // => [14, 77, 140, 204, 265] (sessions since 2019-01-02)
 */
import { tradingDays } from '../calendar';
import { CALENDAR_LAST_YEAR } from '../new-york-time';
import { HISTORY_START } from './market';
import type { SymbolProfile } from './profile';
import { mix32 } from './rng';

/** Sessions between two reports on average. */
export const EARNINGS_CYCLE = 63;
const JITTER = 4;

/**
 * Session indices (0 = `HISTORY_START`) of every report before index `limit`,
 * ascending; empty for funds.
 */
export function earningsSessionIndices(profile: SymbolProfile, limit: number): number[] {
  if (!profile.hasEarnings) return [];
  const phase = mix32(profile.seed, 0xea7) % EARNINGS_CYCLE;
  const out: number[] = [];
  for (let k = 0; ; k++) {
    const jitter = (mix32(profile.seed, 0xea7, k) % (2 * JITTER + 1)) - JITTER;
    const index = phase + k * EARNINGS_CYCLE + jitter;
    if (index >= limit) break;
    if (index >= 0) out.push(index);
  }
  return out;
}

let sessions: string[] | undefined;

/** Every session from `HISTORY_START` to the end of the calendar (built once). */
export function allSessions(): string[] {
  sessions ??= tradingDays(HISTORY_START, `${CALENDAR_LAST_YEAR}-12-31`);
  return sessions;
}

/** Report dates (`YYYY-MM-DD`) of `profile` up to the calendar's end, ascending. */
export function earningsDatesOf(profile: SymbolProfile): string[] {
  const all = allSessions();
  return earningsSessionIndices(profile, all.length).map((i) => all[i]!);
}
