/**
 * @module modules/signals/model/history
 * GET /api/breakouts/history: its query and representations, a signal with
 * its recorded state changes, the page, and the CSV columns.
 */
import { t, type Static } from 'elysia';
import { PATTERN_TYPES, TIMEFRAMES } from '../../../domain/signal';
import { PageMetaSchema, PageQuery } from '../../../pagination';
import { oneOf, SYMBOL_PATTERN } from '../../shared/params';
import { FormatParam } from '../../shared/representations';

export const HistoryQuery = t.Object({
  symbol: t.Optional(
    t.Transform(t.String({ pattern: SYMBOL_PATTERN, description: 'Only this symbol', error: `Query parameter 'symbol' must match ${SYMBOL_PATTERN}` }))
      .Decode((v) => v.toUpperCase())
      .Encode((v) => v),
  ),
  pattern: t.Optional(oneOf('pattern', PATTERN_TYPES, 'Only this pattern type')),
  timeframe: t.Optional(oneOf('timeframe', TIMEFRAMES, 'Only this timeframe')),
  ...PageQuery,
});

export const StateChange = t.Object({
  from: t.Union([t.String(), t.Null()]),
  to: t.String(),
  price: t.Number(),
  at: t.String({ format: 'date-time', description: 'Bar time of the change' }),
  recordedAt: t.String({ format: 'date-time' }),
  runId: t.String(),
});

export const HistorySignal = t.Composite(
  [
    t.Object({
      id: t.String(),
      symbol: t.String(),
      timeframe: t.String(),
      patternFamily: t.String(),
      patternType: t.String(),
      direction: t.String(),
      trendRegime: t.String(),
      breakoutState: t.String(),
      triggerPrice: t.Number(),
      target1: t.Number(),
      stopLoss: t.Union([t.Number(), t.Null()]),
      finalScore: t.Number(),
      confidence: t.Number(),
      scoreBand: t.String(),
      reasons: t.Array(t.String()),
      detectedAt: t.String({ format: 'date-time' }),
      source: t.String(),
      firstRunId: t.String(),
      lastSeenRunId: t.String(),
    }),
    t.Object({ stateHistory: t.Array(StateChange, { description: 'Every recorded state change, oldest first' }) }),
  ],
  { title: 'HistorySignal' },
);

export const HistoryResponse = t.Object(
  {
    signals: t.Array(HistorySignal, { description: 'The page (same as items)' }),
    filters: t.Object({ symbol: t.Union([t.String(), t.Null()]), pattern: t.Union([t.String(), t.Null()]), timeframe: t.Union([t.String(), t.Null()]) }),
    items: t.Array(HistorySignal),
    pagination: PageMetaSchema,
  },
  { title: 'BreakoutHistoryResponse' },
);

export type HistoryQuery = Static<typeof HistoryQuery>;

/** The CSV columns of the history: a signal's fields in their JSON order; `reasons` and `stateHistory` are JSON text in their cells. */
export const HISTORY_CSV_COLUMNS = [
  'id', 'symbol', 'timeframe', 'patternFamily', 'patternType', 'direction', 'trendRegime', 'breakoutState', 'triggerPrice', 'target1', 'stopLoss',
  'finalScore', 'confidence', 'scoreBand', 'reasons', 'detectedAt', 'source', 'firstRunId', 'lastSeenRunId', 'stateHistory',
] as const satisfies readonly (keyof Static<typeof HistorySignal>)[];

/** The route's query: the history's (GraphQL's arguments too) and the representation. */
export const HistoryRouteQuery = t.Composite([HistoryQuery, t.Object({ format: t.Optional(FormatParam('signal')) })]);
export type HistoryRouteQuery = Static<typeof HistoryRouteQuery>;
export type HistoryResponse = Static<typeof HistoryResponse>;
