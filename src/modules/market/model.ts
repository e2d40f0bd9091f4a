/** @module modules/market/model — schemas of the Market Data tag. */
import { t, type Static } from 'elysia';
import { TIMEFRAMES } from '../../domain/signal';
import { PageMetaSchema } from '../../pagination';
import { DateParam, oneOf, SymbolParam, timeframeParam } from '../shared/params';
import { bulkDocs, FormatParam } from '../shared/representations';

/** The spec's ranges, and `max` (additive, issue 31): every session of the window, paged. */
export const RANGES = ['1mo', '3mo', '6mo', 'max'] as const;
export type Range = (typeof RANGES)[number];

/** Trading sessions per range: about 21 a month; `max` counts none (the window is `from`..`to`, or all the history held). */
export const RANGE_SESSIONS: Readonly<Record<Range, number>> = { '1mo': 21, '3mo': 63, '6mo': 126, max: Number.POSITIVE_INFINITY };

/**
 * Bars per page: default 1,000, at most 10,000 — Alpaca's bars endpoint's
 * (market data v2 `limit`: default 1000, max 10000). Every window of the
 * spec's ranges fits one default page (6mo of hourly bars is 126 × 7 = 882),
 * so only `range=max` or a smaller `limit` ever pages.
 */
export const BARS_PAGE_DEFAULT = 1000;
export const BARS_PAGE_MAX = 10_000;

export const BarsQuery = t.Object({
  symbol: SymbolParam,
  range: t.Optional(
    oneOf(
      'range',
      RANGES,
      'The last 1mo ≈ 21, 3mo ≈ 63 or 6mo ≈ 126 trading sessions of the window, or max: every session of it (additive; paged by `limit`/`cursor`). Under API-Version 1.0.0 optional, default 6mo; required from API-Version 1.1.0 (400 without it)',
      undefined,
      { 'x-required-from-api-version': '1.1.0' },
    ),
  ),
  timeframe: timeframeParam('Bar timeframe (additive): daily bars, 4h blocks (09:30–13:30 and 13:30–close) or hourly bars; default daily'),
  from: t.Optional(DateParam('from', 'First session date of the window, inclusive (additive)')),
  to: t.Optional(DateParam('to', 'Last session date of the window, inclusive (additive); `range` counts back from it')),
  limit: t.Optional(
    t.Integer({
      default: BARS_PAGE_DEFAULT,
      description: `Bars per page (additive), clamped to [1, ${BARS_PAGE_MAX}]; default ${BARS_PAGE_DEFAULT}. A window with more bars is paged: pagination.nextCursor, and a Link rel="next" header`,
      error: `Query parameter 'limit' must be a decimal integer (it is clamped to 1..${BARS_PAGE_MAX})`,
    }),
  ),
  cursor: t.Optional(t.String({ description: 'Opaque pagination.nextCursor of an earlier page of the same query (additive); a malformed cursor, or one of another symbol or timeframe, reads the first page' })),
});

/** The REST route's query: the bars query and the representation by name (GraphQL has its own). */
export const BarsRouteQuery = t.Composite([
  BarsQuery,
  t.Object({
    format: t.Optional(FormatParam('bar')),
  }),
]);

export const PriceBar = t.Object(
  {
    date: t.String({ format: 'date', description: 'Session date (New York)' }),
    ts: t.Optional(t.String({ format: 'date-time', description: 'Start of the bar (4h and 1h bars only)' })),
    open: t.Number(),
    high: t.Number(),
    low: t.Number(),
    close: t.Number(),
    volume: t.Number(),
  },
  { title: 'PriceBar' },
);

export const BarsResponse = t.Object(
  {
    symbol: t.String(),
    range: t.Union(RANGES.map((r) => t.Literal(r))),
    timeframe: t.Union(TIMEFRAMES.map((tf) => t.Literal(tf)), { description: 'Bar timeframe (additive)' }),
    source: t.String({ description: "Where the bars come from: the provider's name, e.g. synthetic, csv, yahoo (additive)" }),
    bars: t.Array(PriceBar, { description: 'Bars of the page, oldest first (newest last)' }),
    // The page within the window (additive): present for range=max and for a window longer than one page (MARKET_DOCS.bars).
    pagination: t.Optional(PageMetaSchema),
  },
  { title: 'BarsResponse' },
);

export const SnapshotQuery = t.Object({ symbol: SymbolParam });

export const SnapshotResponse = t.Object(
  {
    symbol: t.String(),
    source: t.String(),
    price: t.Number(),
    volume: t.Number({ description: 'Session volume so far' }),
    ts: t.String({ format: 'date-time' }),
    change: t.Number({ description: 'price − previousClose' }),
    changePercent: t.Number({ description: '100 × change / previousClose' }),
    open: t.Number(),
    dayHigh: t.Number(),
    dayLow: t.Number(),
    previousClose: t.Number(),
    marketOpen: t.Boolean(),
    name: t.Optional(t.String()),
    sector: t.Optional(t.Union([t.String(), t.Null()])),
  },
  { title: 'SnapshotResponse', additionalProperties: true },
);

export type BarsResponse = Static<typeof BarsResponse>;
export type SnapshotResponse = Static<typeof SnapshotResponse>;

const Quadrant = t.Union([t.Literal('leading'), t.Literal('weakening'), t.Literal('lagging'), t.Literal('improving')]);
const Nullable = t.Union([t.Number(), t.Null()]);
const WindowPerformance = t.Object({
  asset: Nullable,
  benchmark: Nullable,
  relative: t.Union([t.Number(), t.Null()], { description: 'asset − benchmark, percentage points' }),
});

export const SectorRotationRow = t.Object({
  sector: t.String({ description: 'GICS sector' }),
  symbol: t.String({ description: 'SPDR sector fund' }),
  rsRatio: t.Number({ description: 'RRG-style RS-Ratio (100 = in line with the benchmark)' }),
  rsMomentum: t.Number({ description: 'RRG-style RS-Momentum (100 = steady relative trend)' }),
  quadrant: Quadrant,
  performance: t.Object({ '1w': WindowPerformance, '1m': WindowPerformance, '3m': WindowPerformance }),
  tail: t.Array(t.Object({ date: t.String({ format: 'date' }), rsRatio: t.Number(), rsMomentum: t.Number(), quadrant: Quadrant }), {
    description: 'Weekly points (5 bars apart), oldest first, ending at the latest',
  }),
});

export const SectorRotationResponse = t.Object(
  {
    asOf: t.String({ format: 'date-time' }),
    benchmark: t.String(),
    count: t.Integer(),
    method: t.String(),
    sectors: t.Array(SectorRotationRow, { description: 'Ranked by RS-Ratio, strongest first' }),
  },
  { title: 'SectorRotationResponse' },
);

export type SectorRotationRow = Static<typeof SectorRotationRow>;
export type SectorRotationResponse = Static<typeof SectorRotationResponse>;

export const MacroCalendarQuery = t.Object({
  types: t.Optional(
    t.String({
      pattern: '^(fomc|cpi|jobs|gdp)(,(fomc|cpi|jobs|gdp))*$',
      description: 'Comma-separated event kinds: fomc, cpi, jobs, gdp (default all)',
      error: "Query parameter 'types' must be a comma-separated list of: fomc, cpi, jobs, gdp",
    }),
  ),
  from: t.Optional(DateParam('from', 'First release date to list (default 30 days ago)')),
  to: t.Optional(DateParam('to', 'Last release date to list (default: no limit)')),
});

const MacroEventSchema = t.Object({
  date: t.String({ format: 'date', description: 'Release date in New York' }),
  time: t.String({ description: 'Release time in New York, HH:MM' }),
  at: t.String({ format: 'date-time' }),
  type: t.Union([t.Literal('fomc'), t.Literal('cpi'), t.Literal('jobs'), t.Literal('gdp')]),
  title: t.String(),
  source: t.String({ description: 'Where the date comes from (agency schedule page or data file)' }),
});

export const MacroCalendarResponse = t.Object(
  {
    asOf: t.String({ format: 'date-time' }),
    timezone: t.Literal('America/New_York'),
    window: t.Object({ from: t.String({ format: 'date' }), to: t.Union([t.String({ format: 'date' }), t.Null()]) }),
    count: t.Integer(),
    events: t.Array(MacroEventSchema),
    next: t.Record(
      t.String(),
      t.Object({
        next: t.Union([MacroEventSchema, t.Null()]),
        calendarDays: t.Union([t.Integer(), t.Null()]),
        hoursUntil: t.Union([t.Number(), t.Null()]),
        within1Day: t.Boolean(),
        within5Days: t.Boolean(),
      }),
      { description: 'Per kind: the next release and its proximity (null when the published schedule does not reach that far)' },
    ),
    nextEvent: t.Union([t.Composite([MacroEventSchema, t.Object({ hoursUntil: t.Number() })]), t.Null()]),
    coverage: t.Record(
      t.String(),
      t.Object({ from: t.Union([t.String(), t.Null()]), through: t.Union([t.String(), t.Null()]), count: t.Integer(), scheduleKnownAhead: t.Boolean() }),
      { description: 'How far the stored schedule of each kind reaches' },
    ),
  },
  { title: 'MacroCalendarResponse' },
);

export type MacroCalendarQuery = Static<typeof MacroCalendarQuery>;
export type MacroCalendarResponse = Static<typeof MacroCalendarResponse>;

/** OpenAPI text of the Market Data routes. */
export const MARKET_DOCS = {
  bars: {
    tags: ['Market Data'],
    summary: 'OHLCV bars',
    description:
      'Bars of a symbol, newest last. `range` keeps the last 1mo ≈ 21, 3mo ≈ 63 or 6mo ≈ 126 trading sessions of the window; it defaults to 6mo under API-Version 1.0.0 and is required from 1.1.0. Additive: `timeframe` (daily, 4h, 1h; default daily), `from`/`to` (session dates, inclusive) bound the window, and `range` counts its sessions back from `to` (or the latest bar) without going before `from` — so `from`/`to` narrow a window. `range=max` (additive) takes every session of the window: any span, `from`..`to` or the whole history held. A window longer than `limit` bars (default 1000, at most 10000) is paged oldest first: `pagination` (nextCursor, hasMore, total bars of the window, offset) and a `Link: <…&cursor=…>; rel="next"` header (RFC 8288) name the next page; pass `cursor` with the same query, or follow the link. `pagination` is present for range=max and for any window longer than one page. Representations (additive): JSON by default, CSV (`text/csv`, RFC 4180 with a header row: date,[ts,]open,high,low,close,volume) or NDJSON (`application/x-ndjson`, one PriceBar per line) by `Accept` or `format=`; an Accept naming none of them is 406. `source` names where the bars come from. 404 for a well-formed symbol the provider does not know; 400 when `from` is after `to`.',
    // Merged into the generated responses by plugins/openapi/publish (withExtras).
    'x-responses': bulkDocs({
      json: 'The page of bars (BarsResponse)',
      csv: 'A header row date,[ts,]open,high,low,close,volume (ts for 4h and 1h bars), then one row per bar, CRLF line ends',
      ndjson: 'One PriceBar JSON object per line (LF)',
    }),
  },
  snapshot: {
    tags: ['Market Data'],
    summary: 'Latest quote',
    description:
      'Price, session volume, change against the previous close, day range, quote time and data source. Ticks while the market is open.',
  },
  sectorRotation: {
    tags: ['Market Data'],
    summary: 'Sector rotation (RRG)',
    description:
      'The 11 SPDR sector funds against SPY on a Relative Rotation Graph: RS-Ratio, RS-Momentum, quadrant, a weekly tail, and 1w/1m/3m performance relative to the benchmark. `method` states the formulas.',
  },
  sectorRotationPage: {
    tags: ['Market Data'],
    summary: 'Sector rotation, paginated',
    description:
      'The sector-rotation answer with the `{ items, pagination }` envelope added; items are ordered by RS-Ratio (`order=desc`, the default, puts the strongest first). The legacy keys stay.',
  },
  macroCalendar: {
    tags: ['Market Data'],
    summary: 'Macro calendar',
    description:
      'Scheduled FOMC decisions (14:00 ET), CPI, Employment Situation and GDP releases (08:30 ET) from the agencies\' published schedules, the next release of each kind with its proximity, and how far each schedule reaches. 404 when the deployment runs with MACRO_CALENDAR=off.',
  },
};
