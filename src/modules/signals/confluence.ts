/**
 * @module modules/signals/confluence
 * /api/confluence: how far independent evidence agrees on a symbol's next move
 * (kernels/confluence holds the factors, weights and rules), computed in the
 * worker pool over the shared bar store. Under daily bars the higher timeframe
 * is weekly bars resampled from them; under 4h and 1h it is the daily series.
 */
import { AppError } from '../../errors';
import { CONFLUENCE_WEIGHTS, DIRECTION_THRESHOLD } from '../../kernels/confluence';
import { ProviderError } from '../../providers/types';
import type { Services } from '../../services';
import type { ConfluenceQuery, ConfluenceResponse } from './model';

type Deps = Pick<Services, 'marketData' | 'barStore' | 'pool' | 'log'>;

const iso = (ts: number) => new Date(ts).toISOString();

export async function confluenceOf(deps: Deps, query: ConfluenceQuery): Promise<ConfluenceResponse> {
  const { symbol, timeframe, lookback, benchmark } = query;
  const asOfTs = query.asOf ? Date.parse(`${query.asOf}T23:59:59.999Z`) : Number.POSITIVE_INFINITY;
  await deps.marketData.instrument(symbol); // unknown symbol → 404
  try {
    await deps.marketData.instrument(benchmark);
  } catch (error) {
    if (error instanceof ProviderError) throw new AppError('invalid_parameter', `Query parameter 'benchmark': ${error.message}`);
    throw error;
  }
  // Loading goes through the cache-through layer, which fills the shared store the worker reads.
  await Promise.all([
    deps.marketData.bars(symbol, timeframe),
    deps.marketData.bars(benchmark, timeframe),
    ...(timeframe === 'daily' ? [] : [deps.marketData.bars(symbol, 'daily')]),
  ]);
  let result;
  try {
    result = await deps.pool.run('confluence', { handle: deps.barStore.handle(), symbol, timeframe, benchmark, asOfTs, lookback });
  } catch (error) {
    deps.log.error('confluence failed', { symbol, timeframe, error: String(error) });
    throw new AppError('scan_failed', 'The confluence computation failed; the cause is in the server log');
  }
  if (result === null) throw new AppError('not_found', `No ${timeframe} bar for ${symbol}${query.asOf ? ` on or before ${query.asOf}` : ''}`);
  return {
    ok: true,
    symbol,
    timeframe,
    asOf: iso(result.barTs),
    benchmark,
    higherTimeframe: result.higherTimeframe,
    lookback: { requested: lookback, effective: result.lookback },
    bars: result.bars,
    score: result.score,
    direction: result.direction,
    agreement: result.agreement,
    coverage: result.coverage,
    factors: result.factors,
    method: {
      score: '100 × Σ weight × vote over the factors (votes +1 bullish, 0, −1 bearish; weights sum to 1), −100..100',
      direction: `bullish at score ≥ ${DIRECTION_THRESHOLD}, bearish at ≤ −${DIRECTION_THRESHOLD}, neutral between`,
      agreement: 'weight of the factors with evidence that vote with the direction ÷ weight of the factors with evidence',
      coverage: 'weight of the factors with evidence (a factor without evidence votes 0 and keeps its weight)',
      weights: { ...CONFLUENCE_WEIGHTS },
      lookback: 'bars of the windowed factors (volume, relativeStrength); clamped to the history available',
      noLookAhead: 'only bars up to asOf are read; a higher-timeframe bar counts once it is complete',
    },
  };
}
