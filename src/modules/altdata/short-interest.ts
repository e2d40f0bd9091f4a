/**
 * @module modules/altdata/short-interest
 * Short-interest reports with the figures traders read off them — change vs
 * the prior report, % of free float, days to cover (shares short ÷ the
 * 20-session average volume to the settlement date, from our bars when the
 * report carries no average) — and the squeeze score of kernels/squeeze on
 * the latest one, with momentum the 20-session return to the latest close.
 * No source reports securities-lending utilisation yet, so that component is
 * left out and the others renormalised (the response says so).
 */
import { round } from '../../kernels/round';
import { squeezeScore } from '../../kernels/squeeze';
import { paginateList, type PageRequest } from '../../pagination';
import type { MarketData } from '../../market-data';
import type { BarSeries, ShortInterestReport } from '../../providers/types';

const AVERAGE_SESSIONS = 20;
const isoDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);

/** Index of the last bar dated on or before `day`, or −1. */
function lastIndexOnOrBefore(bars: BarSeries, day: string): number {
  const ts = Date.parse(`${day}T00:00:00Z`);
  let lo = 0;
  let hi = bars.ts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (bars.ts[mid]! <= ts) (found = mid), (lo = mid + 1);
    else hi = mid - 1;
  }
  return found;
}

/** Days to cover = shares short ÷ average daily volume of the `sessions` sessions to `day` (null without enough bars). */
export function daysToCoverFromBars(sharesShort: number, bars: BarSeries, day: string, sessions = AVERAGE_SESSIONS): { avgDailyVolume: number; daysToCover: number } | null {
  const end = lastIndexOnOrBefore(bars, day);
  if (end + 1 < sessions) return null;
  let sum = 0;
  for (let i = end - sessions + 1; i <= end; i++) sum += bars.volume[i]!;
  const avgDailyVolume = Math.round(sum / sessions);
  return avgDailyVolume > 0 ? { avgDailyVolume, daysToCover: round(sharesShort / avgDailyVolume, 2) } : null;
}

function enrich(r: ShortInterestReport, bars: BarSeries, freeFloat: number | null) {
  const fromBars = r.avgDailyVolume === null || r.daysToCover === null ? daysToCoverFromBars(r.sharesShort, bars, r.settlementDate) : null;
  const change = r.previousSharesShort === null ? null : r.sharesShort - r.previousSharesShort;
  return {
    settlementDate: r.settlementDate,
    sharesShort: r.sharesShort,
    previousSharesShort: r.previousSharesShort,
    change,
    changePct: change === null || !r.previousSharesShort ? null : round((change / r.previousSharesShort) * 100, 2),
    percentOfFloat: freeFloat ? round((r.sharesShort / freeFloat) * 100, 2) : null,
    avgDailyVolume: r.avgDailyVolume ?? fromBars?.avgDailyVolume ?? null,
    daysToCover: r.daysToCover ?? fromBars?.daysToCover ?? null,
    source: r.source,
  };
}
export type ShortInterestRow = ReturnType<typeof enrich>;

/** Every report oldest first with derived figures, the latest as `snapshot`, and its squeeze score. */
export async function shortInterest(marketData: MarketData, symbol: string) {
  await marketData.instrument(symbol);
  const reports = await marketData.capability('shortInterest')(symbol);
  const { bars } = await marketData.completeDaily(symbol);
  const float = marketData.provider.capabilities.has('float') ? await marketData.capability('float')(symbol) : null;
  const freeFloat = float?.freeFloat ?? float?.sharesOutstanding ?? null;
  const rows = [...reports].sort((a, b) => a.settlementDate.localeCompare(b.settlementDate)).map((r) => enrich(r, bars, freeFloat));
  const source = marketData.sourceOf('shortInterest');
  const snapshot = rows.at(-1) ?? null;
  if (!snapshot) return { symbol, source, reports: rows, snapshot: null, squeeze: null };
  const n = bars.close.length;
  const momentum = n > AVERAGE_SESSIONS ? bars.close[n - 1]! / bars.close[n - 1 - AVERAGE_SESSIONS]! - 1 : null;
  const result = squeezeScore({
    shortPercentFloat: snapshot.percentOfFloat === null ? null : snapshot.percentOfFloat / 100,
    daysToCover: snapshot.daysToCover,
    momentum,
    utilisation: null,
  });
  const squeeze = {
    score: result.score === null ? null : round(result.score, 1),
    momentumAsOf: n > 0 ? isoDay(bars.ts[n - 1]!) : null,
    components: result.components.map((c) => ({ ...c, value: c.value === null ? null : round(c.value, 4), score: c.score === null ? null : round(c.score, 4), effectiveWeight: round(c.effectiveWeight, 4) })),
    bands: 'low < 25 ≤ moderate < 50 ≤ elevated < 75 ≤ high',
    note: 'Borrow utilisation is not reported by the configured sources; its weight (0.1) is spread over the other components.',
    freeFloat,
  };
  return { symbol, source, reports: rows, snapshot, squeezeRisk: result.risk ?? undefined, squeeze };
}

/** The latest report with its squeeze score (the history left out). */
export async function latestShortInterest(marketData: MarketData, symbol: string) {
  const { reports: _reports, ...latest } = await shortInterest(marketData, symbol);
  return latest;
}

/** Every report as a page, newest first by default, with the latest snapshot and squeeze score. */
export async function shortInterestPage(marketData: MarketData, symbol: string, request: PageRequest) {
  const result = await shortInterest(marketData, symbol);
  const page = paginateList(result.reports, request);
  return { ...result, reports: page.items, ...page };
}
