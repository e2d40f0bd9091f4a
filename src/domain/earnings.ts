/**
 * @module domain/earnings
 * Where today stands between a symbol's earnings reports (market-data/earnings
 * computes it; /api/earnings and the explanation facts show it).
 */
import { Type, type Static } from '@sinclair/typebox';

/** Sessions a breakout trade is typically held before its target or stop (about a month). */
export const HOLDING_WINDOW_TRADING_DAYS = 20;

const Str = Type.Union([Type.String(), Type.Null()]);
const Int = Type.Union([Type.Integer(), Type.Null()]);

export const EarningsProximitySchema = Type.Object(
  {
    asOf: Type.String({ format: 'date' }),
    nextReport: Str,
    timing: Str,
    tradingDaysUntil: Int,
    calendarDaysUntil: Int,
    holdingWindowTradingDays: Type.Integer(),
    withinHoldingWindow: Type.Boolean({ description: 'The next report falls inside a typical holding window from today' }),
    alertBlockTradingDays: Type.Integer(),
    blocksAlerts: Type.Boolean({ description: 'The signal engine blocks alerts this close to a report (DESIGN §4)' }),
    lastReport: Str,
    tradingDaysSinceLast: Int,
  },
  { title: 'EarningsProximity' },
);
export type EarningsProximity = Static<typeof EarningsProximitySchema>;
