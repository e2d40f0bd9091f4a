/**
 * @module modules/signals/model/breakouts
 * GET /api/breakouts: its query (GraphQL's arguments; REST adds `include`),
 * the REST page and the whole answer GraphQL selects from, the run-level
 * groups a page carries.
 */
import { t, type Static } from 'elysia';
import { RegimeReadingSchema, SignalSchema } from '../../../domain/signal';
import { PageMetaSchema, PageQuery } from '../../../pagination';
import { DateParam, oneOf, SYMBOL_PATTERN, timeframeParam } from '../../shared/params';

export const BreakoutsQuery = t.Object({
  symbols: t.Optional(
    t.String({
      pattern: `^${SYMBOL_PATTERN.slice(1, -1)}(,${SYMBOL_PATTERN.slice(1, -1)})*$`,
      description: 'Comma-separated symbols (default: the server-side universe); symbols outside it are scanned on demand',
      error: "Query parameter 'symbols' must be a comma-separated list of symbols matching ^[A-Za-z][A-Za-z0-9.-]{0,9}$",
    }),
  ),
  timeframe: timeframeParam('Bar timeframe; default daily'),
  view: t.Optional(oneOf('view', ['rollup'] as const, 'rollup groups the signals per symbol into symbolRollups')),
  asOf: t.Optional(DateParam('asOf', 'Replay the scan as of this date (YYYY-MM-DD) using only bars up to it; nothing is persisted (additive)')),
  ...PageQuery,
});

/** The spec's BreakoutSignal with our documented extras (domain/signal declares it). */
export const BreakoutSignal = SignalSchema;

const AlertBlocked = t.Object({
  signal: BreakoutSignal,
  reasons: t.Array(t.String(), { description: 'Each reason in words, with its numbers' }),
  codes: t.Array(t.String(), { description: 'The same reasons as codes: extended | illiquid | regime | earnings | cooldown' }),
});

/** What a persisted run's summary holds (signals/service `summarize`). */
const RUN_SUMMARY_DOCS =
  'The latest persisted run: id, timeframe, asOf (the bar it stood on), startedAt, finishedAt, durationMs, symbolsScanned, signalsFound, status, source, ' +
  'and staleSeries: the series left out because their data ended more than one session of bars before asOf ({symbol, lastBar, barsBehind}; null on runs stored before it was recorded)';

/** What the latest run says as a whole (the same on every page), by the `include=` group each field is in. */
const RUN_LEVEL = {
  regime: t.Union([RegimeReadingSchema, t.Null()], { description: 'The market regime of the run (kernels/regime), null when it could not be read' }),
  alertCandidates: t.Array(BreakoutSignal),
  alertBlocked: t.Array(AlertBlocked),
  alertThresholds: t.Record(t.String(), t.Any()),
  alertSummary: t.Record(t.String(), t.Any()),
  latestPersistedRun: t.Union([t.Record(t.String(), t.Any()), t.Null()], { description: RUN_SUMMARY_DOCS }),
  runHistory: t.Array(t.Record(t.String(), t.Any()), { description: `The newest persisted runs, newest first, each as latestPersistedRun` }),
};

const PAGE_LEVEL = {
  generatedAt: t.String({ format: 'date-time' }),
  rankedSignals: t.Array(BreakoutSignal, { description: 'This page of the ranking (by finalScore, best first); the same list as items. In the rollup view: the best signal of each symbol of the page' }),
  view: t.Optional(t.Literal('rollup')),
  symbolRollups: t.Optional(t.Array(t.Record(t.String(), t.Any()), { description: 'In the rollup view: this page of the symbols, each {symbol, bestSignal, count, patterns}' })),
  asOf: t.Optional(t.String({ format: 'date-time' })),
  items: t.Array(BreakoutSignal),
  pagination: PageMetaSchema,
};

/** /api/breakouts as a value, every field present (GraphQL's `breakouts`: a client there selects the fields it reads). */
export const BreakoutsResponse = t.Object(
  {
    generatedAt: PAGE_LEVEL.generatedAt,
    rankedSignals: PAGE_LEVEL.rankedSignals,
    alertCandidates: RUN_LEVEL.alertCandidates,
    alertBlocked: RUN_LEVEL.alertBlocked,
    alertThresholds: RUN_LEVEL.alertThresholds,
    alertSummary: RUN_LEVEL.alertSummary,
    latestPersistedRun: RUN_LEVEL.latestPersistedRun,
    runHistory: RUN_LEVEL.runHistory,
    view: PAGE_LEVEL.view,
    symbolRollups: PAGE_LEVEL.symbolRollups,
    asOf: PAGE_LEVEL.asOf,
    regime: RUN_LEVEL.regime,
    items: PAGE_LEVEL.items,
    pagination: PAGE_LEVEL.pagination,
  },
  { title: 'BreakoutsResponse' },
);

/**
 * A REST page of /api/breakouts (issue 31): the spec's required keys
 * (generatedAt, rankedSignals) and the envelope on every page; the run-level
 * fields, all optional in the spec, as `include` says.
 */
export const BreakoutsPage = t.Object(
  {
    ...PAGE_LEVEL,
    regime: t.Optional(RUN_LEVEL.regime),
    alertCandidates: t.Optional(RUN_LEVEL.alertCandidates),
    alertBlocked: t.Optional(RUN_LEVEL.alertBlocked),
    alertThresholds: t.Optional(RUN_LEVEL.alertThresholds),
    alertSummary: t.Optional(RUN_LEVEL.alertSummary),
    latestPersistedRun: t.Optional(RUN_LEVEL.latestPersistedRun),
    runHistory: t.Optional(RUN_LEVEL.runHistory),
  },
  {
    title: 'BreakoutsResponse',
    description:
      'The run-level fields (regime; alertCandidates, alertBlocked, alertThresholds, alertSummary; latestPersistedRun, runHistory) are on the first page (no cursor, offset 0) and, past it, only when `include` names their group (regime, alerts, runs); `include` decides on every page when given',
  },
);

export const RUN_GROUPS = ['alerts', 'runs', 'regime'] as const;
export type RunGroup = (typeof RUN_GROUPS)[number];

/** The REST query: the shared one (GraphQL's arguments) and `include`, which only a page of REST needs (GraphQL selects fields). */
export const BreakoutsRouteQuery = t.Object({
  ...BreakoutsQuery.properties,
  include: t.Optional(
    t.String({
      pattern: '^(none|(alerts|runs|regime)(,(alerts|runs|regime))*)$',
      description: 'Run-level groups to carry on this page, comma-separated: alerts, runs, regime, or none; default all on the first page and none past it',
      examples: ['alerts,runs'],
      error: "Query parameter 'include' must be none, or a comma-separated list of: alerts, runs, regime",
    }),
  ),
});

export type BreakoutsPage = Static<typeof BreakoutsPage>;
export type BreakoutsRouteQuery = Static<typeof BreakoutsRouteQuery>;
export type BreakoutsQuery = Static<typeof BreakoutsQuery>;
export type BreakoutsResponse = Static<typeof BreakoutsResponse>;
