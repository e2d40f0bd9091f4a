/**
 * @module providers/synthetic/fundamentals
 * Earnings reports, share counts and short interest of a synthetic company,
 * all derived from its seed and its simulated daily bars, so they agree with
 * the prices:
 *
 * - **Earnings**: the report dates of `earnings.ts` (before the open). EPS
 *   starts at price ÷ P/E (P/E 14–40 by seed) and follows the price; the
 *   surprise has the sign and about the size of the session's opening gap
 *   (surprise % = 150 × gap log return, plus noise of ±1 point), so a beat
 *   gaps up and a miss gaps down. Past reports carry estimate, actual and
 *   surprise; scheduled ones only the estimate.
 * - **Shares**: outstanding = mean daily volume ÷ daily turnover (0.3–1.5%
 *   of the shares a day by seed, the range of US large caps); free float
 *   80–98% of it. Reported as of the last quarter end.
 * - **Short interest** on FINRA's settlement dates (the 15th and the last
 *   business day of each month): short % of float = base (1–8% by seed) ×
 *   e^(−2.5 × 60-session log return) × AR(1) noise (φ 0.8, σ 0.08): shorts
 *   build into weakness and cover into strength. Days to cover = shares short ÷
 *   the 20-session average volume.
 */
import type { BarSeries, EarningsEvent, FloatData, ShortInterestReport } from '../types';
import { earningsDatesOf } from './earnings';
import type { SymbolProfile } from './profile';
import { Rng, seedFor } from './rng';

const SOURCE = 'synthetic';
const isoDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** Index of the session dated `day` in the bars, or −1. */
function sessionIndex(bars: BarSeries, day: string): number {
  const ts = Date.parse(`${day}T00:00:00Z`);
  let lo = 0;
  let hi = bars.ts.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = bars.ts[mid]!;
    if (t === ts) return mid;
    if (t < ts) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/**
 * The fiscal quarter a report on `day` covers: the last month end at least 25
 * days before it (issuers file 25–45 days after the quarter; fiscal quarters
 * need not end with calendar quarters).
 */
function fiscalQuarterEnd(day: string): string {
  const d = new Date(Date.parse(`${day}T00:00:00Z`) - 25 * 86_400_000);
  const monthEnd = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0);
  return isoDay(monthEnd <= d.getTime() ? monthEnd : Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 0));
}

export function earningsEvents(profile: SymbolProfile, bars: BarSeries, today: string): EarningsEvent[] {
  const dates = earningsDatesOf(profile);
  if (dates.length === 0 || bars.ts.length === 0) return [];
  const rng = new Rng(seedFor(profile.seed, 'eps'));
  const pe = rng.range(14, 40);
  const last = bars.close.length - 1;
  return dates.map((date) => {
    const noise = rng.normal();
    const i = sessionIndex(bars, date);
    const priceIndex = i > 0 ? i - 1 : last; // the close before the report, or the latest for scheduled ones
    const eps = round(bars.close[Math.min(priceIndex, last)]! / pe / 4, 2);
    const estimate = eps;
    const reported = date <= today && i > 0;
    const base = { symbol: profile.symbol, date, timing: 'bmo' as const, fiscalPeriodEnding: fiscalQuarterEnd(date), epsEstimate: estimate, source: SOURCE };
    if (!reported) return { ...base, epsActual: null, surprisePct: null, status: 'scheduled' as const };
    const gap = Math.log(bars.open[i]! / bars.close[i - 1]!);
    const surprisePct = round(150 * gap + noise, 2);
    const actual = round(estimate * (1 + surprisePct / 100), 2);
    return { ...base, epsActual: actual, surprisePct: estimate !== 0 ? round(((actual - estimate) / Math.abs(estimate)) * 100, 2) : null, status: 'reported' as const };
  });
}

/** The last calendar quarter end on or before `day`. */
function quarterEndOnOrBefore(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  const m = d.getUTCMonth();
  const end = Date.UTC(d.getUTCFullYear(), Math.floor((m + 1) / 3) * 3, 0);
  return end <= d.getTime() ? isoDay(end) : isoDay(Date.UTC(d.getUTCFullYear(), Math.floor(m / 3) * 3, 0));
}

export function shareCounts(profile: SymbolProfile, today: string): FloatData {
  const rng = new Rng(seedFor(profile.seed, 'shares'));
  const turnover = rng.range(0.003, 0.015);
  const floatShare = rng.range(0.8, 0.98);
  const outstanding = Math.round(profile.averageVolume / turnover / 1000) * 1000;
  return {
    symbol: profile.symbol,
    sharesOutstanding: outstanding,
    freeFloat: Math.round((outstanding * floatShare) / 1000) * 1000,
    asOf: quarterEndOnOrBefore(today),
    source: SOURCE,
    estimated: false,
  };
}

/** FINRA settlement dates (15th and last business day of each month, rolled back to a session) up to `today`. */
export function settlementDates(bars: BarSeries, today: string, months: number): string[] {
  const sessions = new Set(Array.from(bars.ts, isoDay));
  const onOrBefore = (ts: number) => {
    for (let t = ts, k = 0; k < 7; k++, t -= 86_400_000) if (sessions.has(isoDay(t))) return isoDay(t);
    return null;
  };
  const now = new Date(`${today}T00:00:00Z`);
  const out: string[] = [];
  for (let back = months; back >= 0; back--) {
    const y = now.getUTCFullYear();
    const m = now.getUTCMonth() - back;
    for (const ts of [Date.UTC(y, m, 15), Date.UTC(y, m + 1, 0)]) {
      const day = onOrBefore(ts);
      if (day && day <= today && !out.includes(day)) out.push(day);
    }
  }
  return out;
}

export function shortInterestReports(profile: SymbolProfile, bars: BarSeries, floatShares: number, today: string, months = 12): ShortInterestReport[] {
  const rng = new Rng(seedFor(profile.seed, 'short-interest'));
  const base = rng.range(0.01, 0.08);
  let ar = 0;
  let previous: number | null = null;
  const out: ShortInterestReport[] = [];
  for (const date of settlementDates(bars, today, months)) {
    const i = sessionIndex(bars, date);
    if (i < 60) continue;
    ar = 0.8 * ar + 0.08 * rng.normal();
    const momentum = Math.log(bars.close[i]! / bars.close[i - 60]!);
    const pct = Math.min(0.6, base * Math.exp(-2.5 * momentum + ar));
    const sharesShort = Math.round((floatShares * pct) / 100) * 100;
    let volume = 0;
    for (let k = i - 19; k <= i; k++) volume += bars.volume[k]!;
    const avgDailyVolume = Math.round(volume / 20);
    out.push({ symbol: profile.symbol, settlementDate: date, sharesShort, previousSharesShort: previous, avgDailyVolume, daysToCover: round(sharesShort / avgDailyVolume, 2), source: SOURCE });
    previous = sharesShort;
  }
  return out;
}
