/**
 * @module modules/signals/model/confluence
 * GET /api/confluence: its query and the factors of the answer.
 */
import { t, type Static } from 'elysia';
import { TIMEFRAMES } from '../../../domain/signal';
import { DEFAULT_BENCHMARK } from '../../../providers/universe';
import { DateParam, SymbolParam, symbolParam, timeframeParam } from '../../shared/params';

/** Bars of the windowed confluence factors when `lookback` is absent. */
export const DEFAULT_LOOKBACK = 20;

export const ConfluenceQuery = t.Object({
  symbol: SymbolParam,
  timeframe: timeframeParam('Bar timeframe; default daily'),
  lookback: t.Integer({
    minimum: 1,
    default: DEFAULT_LOOKBACK,
    description: `Bars in the windowed factors (volume, relative strength); default ${DEFAULT_LOOKBACK}; longer than the history is clamped`,
    error: "Query parameter 'lookback' must be an integer of at least 1",
  }),
  benchmark: symbolParam('benchmark', DEFAULT_BENCHMARK, 'Benchmark of the relative-strength factor (additive)'),
  asOf: t.Optional(DateParam('asOf', 'Evaluate at the last bar on or before this date, using only bars up to it (additive)')),
});
export type ConfluenceQuery = Static<typeof ConfluenceQuery>;

const ConfluenceFactor = t.Object({
  name: t.String({ description: 'trend | momentum | volume | volatilityContraction | relativeStrength | higherTimeframe | activePatterns' }),
  value: t.Union([t.Number(), t.Null()], { description: 'The number the vote rests on, null without evidence' }),
  vote: t.Union([t.Literal(-1), t.Literal(0), t.Literal(1)]),
  weight: t.Number(),
  detail: t.String({ description: 'The reading in words, with its numbers' }),
});

export const ConfluenceResponse = t.Object(
  {
    ok: t.Boolean(),
    symbol: t.String(),
    timeframe: t.Union(TIMEFRAMES.map((v) => t.Literal(v))),
    asOf: t.String({ format: 'date-time', description: 'Time of the bar evaluated' }),
    benchmark: t.String(),
    higherTimeframe: t.Union([t.Literal('weekly'), t.Literal('daily')]),
    lookback: t.Object({ requested: t.Integer(), effective: t.Integer() }),
    bars: t.Integer({ description: 'Bars of history read' }),
    score: t.Number({ description: '−100..100' }),
    direction: t.Union([t.Literal('bullish'), t.Literal('bearish'), t.Literal('neutral')]),
    agreement: t.Number({ description: '0..1' }),
    coverage: t.Number({ description: '0..1' }),
    factors: t.Array(ConfluenceFactor),
    method: t.Object(
      {
        score: t.String(),
        direction: t.String(),
        agreement: t.String(),
        coverage: t.String(),
        weights: t.Object(
          { trend: t.Number(), momentum: t.Number(), volume: t.Number(), volatilityContraction: t.Number(), relativeStrength: t.Number(), higherTimeframe: t.Number(), activePatterns: t.Number() },
          { description: "Each factor's weight (kernels/confluence CONFLUENCE_WEIGHTS; they sum to 1)" },
        ),
        lookback: t.String(),
        noLookAhead: t.String(),
      },
      { description: 'How each figure is computed, in words' },
    ),
  },
  { title: 'ConfluenceResponse', additionalProperties: true },
);
export type ConfluenceResponse = Static<typeof ConfluenceResponse>;
