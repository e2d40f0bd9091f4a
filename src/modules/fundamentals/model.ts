/** @module modules/fundamentals/model — schemas of the Fundamentals tag (earnings, float). */
import { t, type Static } from 'elysia';
import { EarningsProximitySchema, HOLDING_WINDOW_TRADING_DAYS } from '../../domain/earnings';
import { PageMetaSchema, PageQuery } from '../../pagination';
import { SymbolParam } from '../shared/params';

const Num = t.Union([t.Number(), t.Null()]);
const Str = t.Union([t.String(), t.Null()]);

export const EarningsQuery = t.Object({ symbol: SymbolParam, ...PageQuery });

export const EarningsReport = t.Object(
  {
    date: t.String({ format: 'date', description: 'Report date (US/Eastern)' }),
    timing: t.String({ description: 'bmo (before the open), amc (after the close) or unknown' }),
    status: t.String({ description: 'reported | scheduled' }),
    fiscalPeriodEnding: Str,
    epsEstimate: Num,
    epsActual: Num,
    surprisePct: t.Union([t.Number(), t.Null()], { description: '(actual − estimate) ÷ |estimate| × 100' }),
    tradingDaysAway: t.Integer({ description: 'Sessions from today to the report (negative for past reports)' }),
    reactionSession: t.Union([t.String({ format: 'date' }), t.Null()], {
      description: 'The session that first trades on the news: the report day for bmo, the next session for amc/unknown',
    }),
    gapPct: t.Union([t.Number(), t.Null()], { description: 'Opening gap of the reaction session vs the previous close, %' }),
    movePct: t.Union([t.Number(), t.Null()], { description: 'Close of the reaction session vs the previous close, %' }),
    source: t.String(),
  },
  { title: 'EarningsReport' },
);

export const EarningsProximity = EarningsProximitySchema;

export const EarningsResponse = t.Object(
  {
    symbol: t.String(),
    source: t.String(),
    calendar: t.Array(EarningsReport, { description: 'This page of the calendar (same list as items)' }),
    proximity: t.Union([EarningsProximity, t.Null()]),
    items: t.Array(EarningsReport),
    pagination: PageMetaSchema,
  },
  { title: 'EarningsResponse' },
);

export const FloatQuery = t.Object({ symbol: SymbolParam });

export const FloatResponse = t.Object(
  {
    symbol: t.String(),
    float: t.Object({
      shareOutstanding: Num,
      freeFloat: Num,
      asOf: Str,
      source: t.String(),
    }),
    ratio: t.Union([t.Number(), t.Null()], { description: 'Average daily volume (50 sessions) ÷ free float: the share of the float traded a day' }),
    classification: t.String({ description: 'Volume-rotation class from the days it takes to trade the float once' }),
    caveat: t.String(),
    averageVolume: t.Union([t.Number(), t.Null()], { description: 'Average daily volume of the last 50 complete sessions' }),
    daysToRotate: t.Union([t.Number(), t.Null()], { description: '1 ÷ ratio: sessions to trade the whole float at the average volume' }),
    floatSize: t.String({ description: 'micro (< 10M shares), low (< 50M), mid (< 500M), large, or unknown' }),
    thresholds: t.Object(
      { extreme_rotation: t.String(), very_high_rotation: t.String(), high_rotation: t.String(), normal_rotation: t.String(), low_rotation: t.String() },
      { title: 'RotationThresholds', description: 'The classification thresholds in days to rotate, per class (fundamentals/service ROTATION_CLASSES)' },
    ),
  },
  { title: 'FloatResponse' },
);

export type EarningsReport = Static<typeof EarningsReport>;
export type EarningsProximity = Static<typeof EarningsProximity>;
export type FloatResponse = Static<typeof FloatResponse>;

/** OpenAPI text of the Fundamentals routes. */
export const FUNDAMENTALS_DOCS = {
  earnings: {
    tags: ['Fundamentals'],
    summary: 'Earnings calendar and proximity',
    description: `Past reports (estimate, actual, surprise, and the price reaction of the session that first traded on them: the report day before the open, the next session after the close) and scheduled ones up to a year ahead, paginated (\`order=desc\`, the default, lists the latest date first; \`calendar\` holds the same page as \`items\`). \`proximity\`: trading days to the next report, whether it falls inside a typical ${HOLDING_WINDOW_TRADING_DAYS}-session holding window, and whether it is close enough (≤ 5 trading days) for the signal engine to block alerts. 404 for an unknown symbol or when no configured source provides earnings.`,
  },
  float: {
    tags: ['Fundamentals'],
    summary: 'Share float and volume rotation',
    description:
      '`float`: shares outstanding and free float with their date and source. `ratio`: average daily volume of the last 50 complete sessions ÷ free float (the share of the float traded a day); `daysToRotate` = 1 ÷ ratio. `classification` from days to rotate: extreme ≤ 1, very high ≤ 10, high ≤ 50, normal ≤ 250, low ≤ 1000, very low beyond (`thresholds`). `caveat` says plainly when figures are simulated, estimated, stale (older than 120 days) or missing; without a float source the share counts are null. 404 for an unknown symbol.',
  },
};
