/**
 * @module modules/signals/universe
 * /api/universe/scan: the chosen universes ranked by IBD-style RS rank (ranks
 * are over all of S&P 500 ∪ Nasdaq-100, so a name's rank does not depend on
 * the filter), with the Minervini trend template, 50-day dollar volume, sector,
 * the best live setup, and the market regime with its score multiplier. The
 * underlying scan runs in the worker pool and is reused for a minute per
 * benchmark (jobs/runs).
 *
 * The JSON answer is serialised 50 rows a turn of the event loop through the
 * response schema's mirrors (modules/shared/sliced-json), the same bytes
 * Elysia sent, and callers of the same query at once share one body: Elysia's
 * response check, encoding and mirror over 500 rows (each with its best
 * setup) held the server's thread 156–171 ms in one stretch (bench/stall,
 * five cold callers of `limit=500`, load 5; issue 27).
 */
import { AppError } from '../../errors';
import { REGIME_MULTIPLIER } from '../../kernels/regime';
import type { ScanResult } from '../../domain/signal';
import { ProviderError } from '../../providers/types';
import { inFlight } from '../../in-flight';
import type { Services } from '../../services';
import { jsonResponse } from '../shared/params';
import { slicedJson } from '../shared/sliced-json';
import { UniverseRow, UniverseScanResponse, type UniverseScanQuery } from './model';

type Deps = Pick<Services, 'marketData' | 'runs' | 'log'>;

const HIGH_LIQUIDITY_COUNT = 100;

export async function scanUniverse(deps: Deps, query: UniverseScanQuery): Promise<UniverseScanResponse> {
  const { benchmark, minRsRank, minAvgVolUsd, limit } = query;
  const sources = [...new Set(query.source.split(','))];
  try {
    await deps.marketData.instrument(benchmark);
  } catch (error) {
    if (error instanceof ProviderError) throw new AppError('invalid_parameter', `Query parameter 'benchmark': ${error.message}`);
    throw error;
  }
  let scan: ScanResult;
  try {
    scan = await deps.runs.universe(benchmark);
  } catch (error) {
    deps.log.error('universe scan failed', { error: String(error) });
    throw new AppError('scan_failed', 'The universe scan failed; the cause is in the server log');
  }
  const instruments = await deps.marketData.instruments();
  const liquid = new Set(
    [...scan.stats]
      .filter((s) => Number.isFinite(s.avgDollarVolume50))
      .sort((a, b) => b.avgDollarVolume50 - a.avgDollarVolume50)
      .slice(0, HIGH_LIQUIDITY_COUNT)
      .map((s) => s.symbol),
  );
  const inUniverse = (symbol: string) =>
    sources.some((source) => (source === 'high_liquidity' ? liquid.has(symbol) : instruments.get(symbol)?.indices.includes(source)));
  const best = new Map<string, ScanResult['signals'][number]>();
  for (const signal of scan.signals) if (!best.has(signal.symbol)) best.set(signal.symbol, signal); // signals are ranked best first
  const members = scan.stats.filter((s) => s.barTs !== null && inUniverse(s.symbol));
  const ranked = members
    .filter((s) => (s.rsRank ?? 0) >= minRsRank && s.avgDollarVolume50 >= minAvgVolUsd)
    .sort((a, b) => (b.rsRank ?? 0) - (a.rsRank ?? 0) || (best.get(b.symbol)?.finalScore ?? 0) - (best.get(a.symbol)?.finalScore ?? 0) || a.symbol.localeCompare(b.symbol))
    .slice(0, limit)
    .map((s) => {
      const instrument = instruments.get(s.symbol)!;
      return {
        symbol: s.symbol,
        name: instrument.name,
        sector: instrument.sector,
        indices: instrument.indices,
        price: s.close,
        rsRank: s.rsRank,
        rsScore: Number.isFinite(s.rsScore) ? Math.round(s.rsScore * 10_000) / 10_000 : null,
        avgDollarVolume: Math.round(s.avgDollarVolume50),
        trendTemplate: s.profile?.trendTemplate ?? { passed: false, met: 0, failed: ['not enough history'] },
        trendRegime: s.profile?.trendRegime ?? 'sideways',
        bestSetup: best.get(s.symbol) ?? null,
      };
    });
  return {
    ok: true,
    generatedAt: scan.finishedAt,
    asOf: scan.asOf,
    source: sources.join(','),
    benchmark,
    universeSize: members.length,
    count: ranked.length,
    filters: { minRsRank, minAvgVolUsd, limit },
    regime: scan.regime,
    regimeMultiplier: scan.regime?.multiplier ?? REGIME_MULTIPLIER.neutral,
    method:
      "RS rank: IBD-style percentile 1–99 of 0.4·ROC(63) + 0.2·ROC(126) + 0.2·ROC(189) + 0.2·ROC(252) across S&P 500 ∪ Nasdaq-100 (O'Neil's recency-weighted 12-month strength). Trend template: Minervini's eight Stage-2 criteria. Regime: benchmark trend, breadth and IBD distribution days (regimeMultiplier scales long scores).",
    ranked,
  };
}

type Row = UniverseScanResponse['ranked'][number];
const universeJson = slicedJson<UniverseScanResponse, Row>(UniverseScanResponse, UniverseRow, ['ranked']);
/** Bodies being made, per server's runs and query: identical requests at once share one scan read and one serialisation. */
const bodiesInFlight = inFlight<Deps['runs'], string>();

/** GET /api/universe/scan as JSON: `scanUniverse`'s answer serialised a slice at a time, shared by callers of the same query at once. */
export async function universeAnswer(deps: Deps, query: UniverseScanQuery): Promise<Response> {
  const key = JSON.stringify([query.source, query.benchmark, query.minRsRank, query.minAvgVolUsd, query.limit]);
  const text = await bodiesInFlight(deps.runs, key, async () => {
    const answer = await scanUniverse(deps, query);
    return universeJson(answer, answer.ranked);
  });
  return jsonResponse(text);
}
