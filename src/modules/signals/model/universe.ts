/**
 * @module modules/signals/model/universe
 * GET /api/universe/scan: its sources and filters, a ranked row, the answer.
 */
import { t, type Static } from 'elysia';
import { BreakoutSignal } from './breakouts';
import { RegimeReadingSchema, TrendTemplateSchema } from '../../../domain/signal';
import { DEFAULT_BENCHMARK } from '../../../providers/universe';
import { intParam, numberParam, symbolParam } from '../../shared/params';

export const UNIVERSE_SOURCES = ['sp500', 'nasdaq100', 'high_liquidity'] as const;

export const UniverseScanQuery = t.Object({
  source: t.String({
    pattern: '^(sp500|nasdaq100|high_liquidity)(,(sp500|nasdaq100|high_liquidity))*$',
    default: 'sp500',
    description: 'Comma-separated universes: sp500, nasdaq100, high_liquidity (top 100 of S&P 500 ∪ Nasdaq-100 by 50-day dollar volume); default sp500',
    error: "Query parameter 'source' must be a comma-separated list of: sp500, nasdaq100, high_liquidity",
  }),
  benchmark: symbolParam('benchmark', DEFAULT_BENCHMARK, 'Broad-market benchmark of the regime'),
  minRsRank: numberParam('minRsRank', { minimum: 0, maximum: 99 }, 0, 'Minimum RS rank (1–99)'),
  limit: intParam('limit', 1, 500, 50, 'Rows'),
  minAvgVolUsd: numberParam('minAvgVolUsd', { minimum: 0 }, 200_000_000, 'Minimum 50-day average dollar volume, USD'),
});

export const UniverseRow = t.Object({
  symbol: t.String(),
  name: t.String(),
  sector: t.Union([t.String(), t.Null()]),
  indices: t.Array(t.String()),
  price: t.Number(),
  rsRank: t.Union([t.Integer(), t.Null()]),
  rsScore: t.Union([t.Number(), t.Null()], { description: '0.4·ROC63 + 0.2·(ROC126 + ROC189 + ROC252)' }),
  avgDollarVolume: t.Number({ description: '50-day average of close × volume, USD' }),
  trendTemplate: TrendTemplateSchema,
  trendRegime: t.String(),
  bestSetup: t.Union([BreakoutSignal, t.Null()], { description: 'The highest-scoring live setup, or null' }),
});

export const UniverseScanResponse = t.Object(
  {
    ok: t.Boolean(),
    generatedAt: t.String({ format: 'date-time' }),
    asOf: t.String({ format: 'date-time' }),
    source: t.String(),
    benchmark: t.String(),
    universeSize: t.Integer({ description: 'Symbols in the chosen universes before filters' }),
    count: t.Integer(),
    filters: t.Object({ minRsRank: t.Number(), minAvgVolUsd: t.Number(), limit: t.Integer() }),
    regime: t.Union([RegimeReadingSchema, t.Null()], { description: 'The market regime of the run (kernels/regime), null when it could not be read' }),
    regimeMultiplier: t.Number(),
    method: t.String(),
    ranked: t.Array(UniverseRow),
  },
  { title: 'UniverseScanResponse' },
);

export type UniverseScanQuery = Static<typeof UniverseScanQuery>;
export type UniverseScanResponse = Static<typeof UniverseScanResponse>;
