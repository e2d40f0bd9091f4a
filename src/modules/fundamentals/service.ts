/**
 * @module modules/fundamentals/service
 * Earnings calendar with proximity, and share float with volume rotation.
 *
 * **Earnings proximity**: trading days from today (the provider's clock) to
 * the next report (market-data/earnings). A report inside `HOLDING_WINDOW_TRADING_DAYS` (20 sessions,
 * about the month a breakout trade is typically held before its target or
 * stop) lands inside the trade; within `ALERT_THRESHOLDS.earningsWithinTradingDays`
 * the signal engine blocks alerts (DESIGN §4). The price reaction of past
 * reports is read from our daily bars: the reaction session is the report day
 * for before-the-open reports and the next session for after-the-close ones.
 *
 * **Float rotation**: `ratio` = average daily volume over the last 50 complete
 * sessions ÷ free float (daily float turnover); days to rotate = 1 ÷ ratio.
 * US large caps typically turn over 0.3–1% of their shares a day (100–300
 * sessions to rotate; Lo & Wang, "Trading Volume: Definitions, Data Analysis,
 * and Implications of Portfolio Theory", RFS 13(2), 2000, report weekly
 * turnover near 1%). `ROTATION_CLASSES` brackets that.
 */
import { yieldToEventLoop } from '../../db/client';
import { indexAtOrBefore } from '../../kernels/ohlcv';
import { round } from '../../kernels/round';
import { ALERT_THRESHOLDS } from '../../jobs/alerts';
import { earningsProximity } from '../../market-data/earnings';
import { nextTradingDay, tradingDaysUntil } from '../../providers/calendar';
import type { MarketData } from '../../market-data';
import type { BarSeries, EarningsEvent } from '../../providers/types';
import { paginateList, type PageRequest } from '../../pagination';
import { inFlight } from '../../in-flight';
import type { EarningsReport, FloatResponse } from './model';

/** Scheduled reports listed ahead of today (vendors announce the next one; later ones are projections). */
const SCHEDULE_HORIZON_DAYS = 366;
const AVERAGE_VOLUME_SESSIONS = 50;
/** Days-to-rotate upper bounds of each class, ascending; beyond the last: `very_low_rotation`. */
export const ROTATION_CLASSES = [
  { name: 'extreme_rotation', maxDays: 1 },
  { name: 'very_high_rotation', maxDays: 10 },
  { name: 'high_rotation', maxDays: 50 },
  { name: 'normal_rotation', maxDays: 250 },
  { name: 'low_rotation', maxDays: 1000 },
] as const;
/** Free-float share counts that bound the size classes. */
const FLOAT_SIZES = [
  { name: 'micro', below: 10e6 },
  { name: 'low', below: 50e6 },
  { name: 'mid', below: 500e6 },
] as const;
/** Share counts older than this (days) are called stale. */
const STALE_AFTER_DAYS = 120;

const DAY_MS = 86_400_000;
const isoDay = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const pct = (to: number, from: number) => round((to / from - 1) * 100, 2);

/** Index of the last daily bar dated `date` (YYYY-MM-DD), or −1: a search, not an index of every bar's date per call. */
function barOn(bars: BarSeries, date: string): number {
  const i = indexAtOrBefore(bars.ts, Date.parse(`${date}T00:00:00Z`) + DAY_MS - 1);
  return i >= 0 && isoDay(bars.ts[i]!) === date ? i : -1;
}

function reactionOf(event: EarningsEvent, bars: BarSeries): Pick<EarningsReport, 'reactionSession' | 'gapPct' | 'movePct'> {
  const none = { reactionSession: null, gapPct: null, movePct: null };
  if (event.status !== 'reported' || event.timing === 'unknown') return none;
  const session = event.timing === 'bmo' ? event.date : nextTradingDay(event.date);
  const i = barOn(bars, session);
  if (i <= 0) return { ...none, reactionSession: session };
  const previous = bars.close[i - 1]!;
  return { reactionSession: session, gapPct: pct(bars.open[i]!, previous), movePct: pct(bars.close[i]!, previous) };
}

/** Callers of one symbol's calendar at once share one computation (issue 27); each pages it. */
const sharedCalendar = inFlight<MarketData, Awaited<ReturnType<typeof earningsCalendar>>>();

export async function earnings(marketData: MarketData, symbol: string, page: PageRequest) {
  const { source, calendar, proximity } = await sharedCalendar(marketData, symbol, () => earningsCalendar(marketData, symbol));
  const { items, pagination } = paginateList(calendar, page);
  return { symbol, source, calendar: items, proximity, items, pagination };
}

/** Every listed report of `symbol`, oldest first, and the proximity of the next. */
async function earningsCalendar(marketData: MarketData, symbol: string) {
  await yieldToEventLoop(); // callers that came together are all dispatched, and share this, before it starts (held data settles in microtasks)
  await marketData.instrument(symbol);
  const events = await marketData.capability('earnings')(symbol);
  const { bars, today } = await marketData.completeDaily(symbol);
  const horizon = isoDay(Date.parse(`${today}T00:00:00Z`) + SCHEDULE_HORIZON_DAYS * DAY_MS);
  const calendar: EarningsReport[] = events
    .filter((e) => e.date <= horizon)
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((e) => ({
      date: e.date,
      timing: e.timing,
      status: e.status,
      fiscalPeriodEnding: e.fiscalPeriodEnding,
      epsEstimate: e.epsEstimate,
      epsActual: e.epsActual,
      surprisePct: e.surprisePct,
      tradingDaysAway: tradingDaysUntil(today, e.date),
      ...reactionOf(e, bars),
      source: e.source,
    }));
  return { source: marketData.sourceOf('earnings'), calendar, proximity: earningsProximity(calendar, today, ALERT_THRESHOLDS.earningsWithinTradingDays) };
}

export function rotationClass(daysToRotate: number | null): string {
  if (daysToRotate === null) return 'unknown';
  return ROTATION_CLASSES.find((c) => daysToRotate <= c.maxDays)?.name ?? 'very_low_rotation';
}

export async function floatOf(marketData: MarketData, symbol: string): Promise<FloatResponse> {
  await marketData.instrument(symbol);
  const { bars, today } = await marketData.completeDaily(symbol);
  const n = bars.volume.length;
  const k = Math.min(AVERAGE_VOLUME_SESSIONS, n);
  let sum = 0;
  for (let i = n - k; i < n; i++) sum += bars.volume[i]!;
  const averageVolume = k > 0 ? Math.round(sum / k) : null;
  // Every class named once (FloatResponse lists them): the entries are built from the same list.
  const thresholds = Object.fromEntries(ROTATION_CLASSES.map((c) => [c.name, `≤ ${c.maxDays} days to rotate`])) as Record<(typeof ROTATION_CLASSES)[number]['name'], string>;
  const supported = marketData.provider.capabilities.has('float');
  const data = supported ? await marketData.capability('float')(symbol) : null;
  const base = data?.freeFloat ?? data?.sharesOutstanding ?? null;
  const ratio = base && averageVolume !== null ? round(averageVolume / base, 6) : null;
  const daysToRotate = ratio ? round(1 / ratio, 1) : null;
  const caveats: string[] = [];
  if (!data) caveats.push('No float data source is configured for this deployment; share counts are unknown.');
  else {
    if (data.source === 'synthetic') caveats.push('Share counts are simulated (synthetic provider), sized from the simulated volume.');
    if (data.estimated) caveats.push('Share counts are estimated, not read from a filing.');
    if (data.freeFloat === null && data.sharesOutstanding !== null) caveats.push('Free float is unknown; the ratio uses shares outstanding, which understates turnover.');
    if (data.asOf && Date.parse(today) - Date.parse(data.asOf) > STALE_AFTER_DAYS * DAY_MS) {
      caveats.push(`Share counts are as of ${data.asOf}, more than ${STALE_AFTER_DAYS} days old.`);
    }
    if (base === null) caveats.push('The source reported no share counts for this symbol.');
  }
  if (k < AVERAGE_VOLUME_SESSIONS) caveats.push(`Average volume over ${k} sessions only.`);
  const floatSize = base === null ? 'unknown' : (FLOAT_SIZES.find((s) => base < s.below)?.name ?? 'large');
  return {
    symbol,
    float: { shareOutstanding: data?.sharesOutstanding ?? null, freeFloat: data?.freeFloat ?? null, asOf: data?.asOf ?? null, source: data?.source ?? 'none' },
    ratio,
    classification: rotationClass(daysToRotate),
    caveat: caveats.length > 0 ? caveats.join(' ') : `Reported share counts as of ${data!.asOf ?? 'an unknown date'}; volume from the last ${k} complete sessions.`,
    averageVolume,
    daysToRotate,
    floatSize,
    thresholds,
  };
}
