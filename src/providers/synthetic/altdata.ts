/**
 * @module providers/synthetic/altdata
 * Insider transactions, SEC filings and social-media mentions of a synthetic
 * company, derived from its seed and simulated daily bars:
 *
 * - **Insiders**: eight people (CEO, CFO, COO, General Counsel, four
 *   directors). Officers sell a few times a quarter (code S) and receive awards
 *   each February (A) with tax withholding (F) the same day. Before about half
 *   of the past rallies (a 20-session gain over 12%), three or four insiders
 *   buy in the open market (P) within the ten sessions before it starts: the
 *   cluster buying real studies find before outperformance (Lakonishok & Lee,
 *   "Are Insider Trades Informative?", RFS 14(1), 2001). Prices are the
 *   session's close ± 0.5%; filings come two business days later, the Form 4
 *   deadline.
 * - **Filings**: an 8-K (Item 2.02) on each report date, the 10-Q (10-K for
 *   the fourth fiscal quarter) the same day, a DEF 14A each March, and a Form 4
 *   for each insider filing. Links open the company's EDGAR filing index for
 *   that form type (a synthetic company has no real documents).
 * - **Social**: daily mentions ∝ √(mean volume) × (1 + 40 × |return|) ×
 *   (volume ÷ its 20-session average), ×3 on report days, ×0.4 on days without
 *   a session (they use the last session's move); sentiment =
 *   tanh(12 × 5-session log return) + noise, clamped to [−1, 1]; 40% of
 *   mentions are tagged bullish or bearish in that balance.
 */
import type { BarSeries, Filing, InsiderTransaction, SocialDay } from '../types';
import { earningsDatesOf } from './earnings';
import type { SymbolProfile } from './profile';
import { Rng, seedFor } from './rng';

const SOURCE = 'synthetic';
const DAY_MS = 86_400_000;
const isoDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

const FIRST = ['Alex', 'Maria', 'James', 'Priya', 'Robert', 'Linda', 'Chen', 'Sofia', 'David', 'Aisha', 'Michael', 'Elena', 'Thomas', 'Grace', 'Daniel', 'Nora'];
const LAST = ['Carter', 'Nguyen', 'Okafor', 'Schmidt', 'Patel', 'Rossi', 'Kim', 'Levine', 'Moreau', 'Haddad', 'Brennan', 'Tanaka', 'Silva', 'Novak', 'Ward', 'Lindqvist'];
const ROLES: { role: string; officer: boolean }[] = [
  { role: 'Chief Executive Officer', officer: true },
  { role: 'Chief Financial Officer', officer: true },
  { role: 'Chief Operating Officer', officer: true },
  { role: 'General Counsel', officer: true },
  { role: 'Director', officer: false },
  { role: 'Director', officer: false },
  { role: 'Director', officer: false },
  { role: 'Director', officer: false },
];

interface Insider {
  name: string;
  role: string;
  officer: boolean;
}

function insidersOf(profile: SymbolProfile): Insider[] {
  const rng = new Rng(seedFor(profile.seed, 'insiders'));
  return ROLES.map(({ role, officer }) => ({ name: `${LAST[rng.int(0, LAST.length - 1)]!} ${FIRST[rng.int(0, FIRST.length - 1)]!}`, role, officer }));
}

/** `n` NYSE sessions after index `i` in the bars (or calendar business days past their end). */
function businessDaysAfter(bars: BarSeries, i: number, n: number): string {
  if (i + n < bars.ts.length) return isoDay(bars.ts[i + n]!);
  let t = bars.ts[i]!;
  for (let k = 0; k < n; ) {
    t += DAY_MS;
    const wd = new Date(t).getUTCDay();
    if (wd !== 0 && wd !== 6) k++;
  }
  return isoDay(t);
}

/** Every insider transaction over the bars, oldest first. */
export function insiderTransactions(profile: SymbolProfile, bars: BarSeries): InsiderTransaction[] {
  if (profile.kind !== 'stock' || bars.ts.length === 0) return [];
  const rng = new Rng(seedFor(profile.seed, 'insider-trades'));
  const people = insidersOf(profile);
  const n = bars.ts.length;
  const out: InsiderTransaction[] = [];
  const add = (i: number, who: Insider, code: string, shares: number, withPrice: boolean) => {
    const price = withPrice ? round(bars.close[i]! * (1 + rng.range(-0.005, 0.005)), 2) : null;
    const qty = Math.max(1, Math.round(shares));
    out.push({
      symbol: profile.symbol,
      insider: who.name,
      role: who.role,
      isDirector: !who.officer,
      isOfficer: who.officer,
      code,
      acquiredDisposed: code === 'S' || code === 'F' ? 'D' : 'A',
      shares: qty,
      price,
      value: price === null ? null : round(qty * price, 2),
      sharesOwnedAfter: null,
      transactionDate: isoDay(bars.ts[i]!),
      filingDate: businessDaysAfter(bars, i, 2),
      filingUrl: null,
      source: SOURCE,
    });
  };
  // Clusters of open-market buying before past rallies.
  let nextCluster = 0;
  for (let i = 10; i + 20 < n; i++) {
    if (i < nextCluster || Math.log(bars.close[i + 20]! / bars.close[i]!) < 0.12 || rng.uniform() < 0.5) continue;
    const buyers = [...people].sort(() => rng.uniform() - 0.5).slice(0, rng.int(3, 4));
    for (const who of buyers) {
      const day = i - rng.int(0, 9);
      add(day, who, 'P', rng.logRange(100_000, 2_000_000) / bars.close[day]!, true);
    }
    nextCluster = i + 60;
  }
  // Routine officer sales, and February awards with withholding.
  for (let i = 0; i < n; i++) {
    const date = new Date(bars.ts[i]!);
    const first = i === 0 || new Date(bars.ts[i - 1]!).getUTCMonth() !== date.getUTCMonth();
    if (first && date.getUTCMonth() === 1) {
      for (const who of people.filter((p) => p.officer)) {
        const award = rng.logRange(5_000_000, 30_000_000) / bars.close[i]!;
        add(i, who, 'A', award, false);
        add(i, who, 'F', award * 0.37, true);
      }
    }
    if (rng.uniform() < 0.04) add(i, people[rng.int(0, 3)]!, 'S', rng.logRange(500_000, 10_000_000) / bars.close[i]!, true);
  }
  return out.sort((a, b) => a.transactionDate.localeCompare(b.transactionDate) || a.insider.localeCompare(b.insider));
}

const edgarIndex = (symbol: string, form: string) =>
  `https://www.sec.gov/cgi-bin/browse-edgar?action=getcompany&CIK=${encodeURIComponent(symbol)}&type=${encodeURIComponent(form)}&dateb=&owner=include&count=40`;

/** Every filing up to `today`, newest first. */
export function filingsOf(profile: SymbolProfile, insiderTrades: InsiderTransaction[], today: string): Filing[] {
  if (profile.kind !== 'stock') return [];
  const out: Filing[] = [];
  let accession = 0;
  const add = (form: string, filedAt: string, title: string) => {
    accession++;
    const year = filedAt.slice(2, 4);
    out.push({ symbol: profile.symbol, form, filedAt, title, url: edgarIndex(profile.symbol, form), accessionNumber: `0009${String(profile.seed % 1e6).padStart(6, '0')}-${year}-${String(accession).padStart(6, '0')}`, source: SOURCE });
  };
  const dates = earningsDatesOf(profile).filter((d) => d <= today);
  dates.forEach((date, k) => {
    add('8-K', date, 'Current report: Item 2.02 Results of Operations and Financial Condition');
    const annual = k % 4 === 3;
    add(annual ? '10-K' : '10-Q', date, annual ? 'Annual report' : 'Quarterly report');
  });
  const years = new Set(dates.map((d) => d.slice(0, 4)));
  for (const year of years) if (`${year}-03-20` <= today) add('DEF 14A', `${year}-03-20`, 'Definitive proxy statement');
  const byFiling = new Map<string, InsiderTransaction>();
  for (const t of insiderTrades) if (t.filingDate <= today) byFiling.set(`${t.filingDate}|${t.insider}`, t);
  for (const t of byFiling.values()) add('4', t.filingDate, `Statement of changes in beneficial ownership: ${t.insider} (${t.role})`);
  return out.sort((a, b) => b.filedAt.localeCompare(a.filedAt) || b.accessionNumber.localeCompare(a.accessionNumber));
}

/** Daily mentions over the `days` calendar days ending `today`, oldest first. */
export function socialDays(profile: SymbolProfile, bars: BarSeries, today: string, days: number): SocialDay[] {
  const n = bars.ts.length;
  if (n < 21) return [];
  const reports = new Set(earningsDatesOf(profile));
  const base = 0.08 * Math.sqrt(profile.averageVolume);
  const out: SocialDay[] = [];
  const end = Date.parse(`${today}T00:00:00Z`);
  const start = end - (days - 1) * DAY_MS;
  let i = 0; // the last session on or before the day
  for (let t = start; t <= end; t += DAY_MS) {
    const day = isoDay(t);
    while (i + 1 < n && bars.ts[i + 1]! <= t) i++;
    if (bars.ts[i]! > t || i < 20) continue;
    const rng = new Rng(seedFor(profile.seed, 'social', day));
    const session = isoDay(bars.ts[i]!) === day;
    const move = Math.abs(Math.log(bars.close[i]! / bars.close[i - 1]!));
    let avg = 0;
    for (let k = i - 19; k <= i; k++) avg += bars.volume[k]! / 20;
    const attention = (1 + 40 * move) * Math.min(5, bars.volume[i]! / avg) * (reports.has(day) ? 3 : 1) * (session ? 1 : 0.4);
    const mentions = Math.max(0, Math.round(base * attention * Math.exp(0.25 * rng.normal())));
    const sentiment = Math.max(-1, Math.min(1, Math.tanh(12 * Math.log(bars.close[i]! / bars.close[i - 5]!)) + 0.15 * rng.normal()));
    const tagged = Math.round(mentions * 0.4);
    const bullish = Math.round((tagged * (1 + sentiment)) / 2);
    const bearish = tagged - bullish;
    out.push({ symbol: profile.symbol, date: day, mentions, bullish, bearish, sentiment: mentions ? round((bullish - bearish) / Math.max(1, tagged), 3) : 0, source: SOURCE });
  }
  return out;
}
