/**
 * @module market-data/earnings
 * Earnings proximity: trading days from today (the provider's clock) to the
 * next report, whether that falls inside a typical holding window
 * (`HOLDING_WINDOW_TRADING_DAYS`), and whether it is close enough for the
 * alert policy to block alerts (its threshold is passed in). The next report
 * is the first scheduled one from today on (else any later one); the last is
 * the latest before today, or today's once reported. Reports as the provider
 * gives them (`EarningsEvent`) or as /api/earnings lists them.
 *
 * @example
 * earningsProximity([{ date: '2026-12-03', status: 'scheduled', timing: 'amc' }], '2026-11-20', 5);
 * // => { nextReport: '2026-12-03', tradingDaysUntil: 8, withinHoldingWindow: true, blocksAlerts: false, … }
 */
import { HOLDING_WINDOW_TRADING_DAYS, type EarningsProximity } from '../domain/earnings';
import { tradingDaysUntil } from '../providers/calendar';

const DAY_MS = 86_400_000;

/** Null without any report. */
export function earningsProximity(reports: readonly { date: string; status: string; timing: string }[], today: string, alertBlockTradingDays: number): EarningsProximity | null {
  if (reports.length === 0) return null;
  const calendar = [...reports].sort((a, b) => a.date.localeCompare(b.date));
  const next = calendar.find((e) => e.date >= today && e.status === 'scheduled') ?? calendar.find((e) => e.date > today) ?? null;
  const last = calendar.findLast((e) => e.date < today || (e.date === today && e.status === 'reported')) ?? null;
  const until = next ? tradingDaysUntil(today, next.date) : null;
  return {
    asOf: today,
    nextReport: next?.date ?? null,
    timing: next?.timing ?? null,
    tradingDaysUntil: until,
    calendarDaysUntil: next ? Math.round((Date.parse(next.date) - Date.parse(today)) / DAY_MS) : null,
    holdingWindowTradingDays: HOLDING_WINDOW_TRADING_DAYS,
    withinHoldingWindow: until !== null && until <= HOLDING_WINDOW_TRADING_DAYS,
    alertBlockTradingDays,
    blocksAlerts: until !== null && until <= alertBlockTradingDays,
    lastReport: last?.date ?? null,
    tradingDaysSinceLast: last ? tradingDaysUntil(last.date, today) : null,
  };
}
