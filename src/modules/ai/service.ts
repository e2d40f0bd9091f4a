/**
 * @module modules/ai/service
 * /api/explain: which signal (a persisted one by id, the symbol's best
 * current one, or the one posted), the facts around it from the services
 * that own them, and the explainer (src/ai), which answers from its cache or
 * a grounded model answer.
 *
 * Facts and their sources: the signal's own fields (levels, geometry,
 * volume, RS, score components, reasons); the market regime of the scan run
 * that saw it (for a posted signal, the latest run of its timeframe); the
 * sector from the provider's instruments, and its fund's rotation against the
 * benchmark from bars up to that scan's time (a posted signal: its
 * detectedAt, else the latest bar); earnings proximity from the
 * provider's calendar (market-data/earnings); the track record of the
 * pattern, in its band and in every band, from the live ledger
 * (ledger/performance, cached per ledger head).
 */
import type { Explanation } from '../../ai';
import type { ExplainFacts, HistoryRecord, SectorRotation } from '../../ai/fact-schema';
import { buildFacts, explainedId, historyRecord } from '../../ai/facts';
import type { EarningsProximity } from '../../domain/earnings';
import type { ExplainableSignal } from '../../domain/explanation';
import { TIMEFRAMES, type RegimeReading } from '../../domain/signal';
import { AppError } from '../../errors';
import { ALERT_THRESHOLDS } from '../../jobs/alerts';
import { byRank } from '../../kernels/signal-view';
import { round, roundOrNull } from '../../kernels/round';
import { rotationLookback, rotationSnapshot } from '../../kernels/rotation';
import { scoreBand } from '../../kernels/scoring';
import { performance } from '../../ledger/performance';
import { alignCloses } from '../../market-data/align';
import { earningsProximity } from '../../market-data/earnings';
import { newYorkDate } from '../../providers/new-york-time';
import { ProviderError } from '../../providers/types';
import { DEFAULT_BENCHMARK, SECTOR_ETFS } from '../../providers/universe';
import type { Services } from '../../services';
import type { ExplainQuery, ExplainRequestBody, ExplainResponse } from './model';

type Deps = Pick<Services, 'marketData' | 'runs' | 'scans' | 'ledgerFigures' | 'explainer' | 'log'>;

/** A signal with the market regime and the bar time (ISO) of the scan that saw it. */
interface Found {
  signal: ExplainableSignal;
  regime: RegimeReading | null;
  asOf: string | null;
}

/** 503 at once when no model is configured (before any lookup). */
function requireModel(deps: Deps): void {
  if (!deps.explainer.configured) throw new AppError('ai_unavailable', `AI explanations are unavailable: ${deps.explainer.status().reason}`);
}

/** GET /api/explain: the signal `signalId` of `symbol`, or the symbol's best current signal. */
export async function explainSignal(deps: Deps, query: ExplainQuery): Promise<ExplainResponse> {
  requireModel(deps);
  const { symbol, signalId } = query;
  await deps.marketData.instrument(symbol);
  const found = signalId ? await persistedSignal(deps, signalId) : await bestCurrentSignal(deps, symbol);
  if (!found || found.signal.symbol !== symbol) {
    throw new AppError('not_found', signalId ? `No signal ${signalId} of ${symbol}` : `${symbol} has no current signal in the latest scans`);
  }
  const facts = await factsOf(deps, found);
  return respond(await deps.explainer.explain(facts.signal.id, facts));
}

/** POST /api/explain: a client's signal, with its news and sector context. */
export async function explainPosted(deps: Deps, body: ExplainRequestBody): Promise<ExplainResponse> {
  requireModel(deps);
  const signal: ExplainableSignal = { ...body.signal, symbol: body.signal.symbol.toUpperCase() };
  const latest = await deps.runs.latest(signal.timeframe);
  const found = { signal, regime: latest?.view.regime ?? null, asOf: signal.detectedAt ?? null };
  const facts = await factsOf(deps, found, { news: body.news, sectorContext: body.sectorCtx });
  const unbounded = firstNonFinite(facts);
  if (unbounded) throw new AppError('invalid_body', `Invalid body parameter 'signal': its levels give a fact with no finite value (${unbounded}); check triggerPrice, target1 and stopLoss`);
  return respond(await deps.explainer.explain(explainedId(signal), facts));
}

/** The path of the first number in `value` that is not finite (a client's levels can make a distance divide by ~0), else null. */
function firstNonFinite(value: unknown, path = 'facts'): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = firstNonFinite(item, `${path}[${i}]`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = firstNonFinite(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

/** A persisted signal by id: from the latest run that lists it (held in memory), else from the database. */
async function persistedSignal(deps: Deps, id: string): Promise<Found | undefined> {
  for (const timeframe of TIMEFRAMES) {
    const run = await deps.runs.latest(timeframe);
    const signal = run?.view.signals.find((s) => s.id === id);
    if (signal) return { signal, regime: run!.view.regime, asOf: run!.view.asOf };
  }
  return deps.scans.findSignal(id);
}

/** The highest-ranked signal of `symbol` across the latest run of each timeframe (a daily run is made when none exists). */
async function bestCurrentSignal(deps: Deps, symbol: string): Promise<Found | undefined> {
  const runs = await Promise.all(TIMEFRAMES.map((tf) => (tf === 'daily' ? deps.runs.current(tf) : deps.runs.latest(tf))));
  const candidates = runs.flatMap((run) => (run ? run.view.signals.filter((s) => s.symbol === symbol).map((signal) => ({ signal, regime: run.view.regime, asOf: run.view.asOf })) : []));
  return candidates.sort((a, b) => byRank(a.signal, b.signal))[0];
}

async function factsOf(deps: Deps, found: Found, client: { news?: Record<string, unknown>[]; sectorContext?: Record<string, unknown> } = {}): Promise<ExplainFacts> {
  const { signal } = found;
  const instrument = (await deps.marketData.instruments()).get(signal.symbol) ?? null;
  const sectorEtf = instrument?.sector ? (SECTOR_ETFS[instrument.sector] ?? null) : null;
  const [earnings, history, sectorRotation] = await Promise.all([
    earningsOf(deps, signal.symbol, instrument !== null),
    historyOf(deps, signal.patternType, signal.scoreBand ?? scoreBand(signal.finalScore)),
    rotationOf(deps, sectorEtf, found.asOf),
  ]);
  return buildFacts({ signal, asOf: found.asOf, instrument, sectorEtf, sectorRotation, sectorContext: client.sectorContext, regime: found.regime, earnings, history, news: client.news });
}

/**
 * The sector fund's Relative Rotation Graph reading against the benchmark
 * (kernels/rotation), from daily bars up to `asOf` only; null without a
 * sector fund or enough shared history.
 */
async function rotationOf(deps: Deps, etf: string | null, asOf: string | null): Promise<SectorRotation | null> {
  if (!etf) return null;
  const to = asOf ? Date.parse(asOf) : undefined;
  try {
    const [fund, benchmark] = await Promise.all([deps.marketData.bars(etf, 'daily', { to }), deps.marketData.bars(DEFAULT_BENCHMARK, 'daily', { to })]);
    const aligned = alignCloses(fund, benchmark);
    if (aligned.ts.length <= rotationLookback()) return null;
    const { latest, performance: relative } = rotationSnapshot(aligned.asset, aligned.benchmark);
    if (!latest) return null;
    return {
      benchmark: DEFAULT_BENCHMARK,
      asOf: new Date(aligned.ts[aligned.ts.length - 1]!).toISOString().slice(0, 10),
      quadrant: latest.quadrant,
      rsRatio: round(latest.rsRatio, 1),
      rsMomentum: round(latest.rsMomentum, 1),
      relative1mPct: roundOrNull(relative['1m'].relative, 2),
      relative3mPct: roundOrNull(relative['3m'].relative, 2),
    };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    deps.log.warn('explain: sector rotation unavailable', { etf, error: error.message });
    return null;
  }
}

/** Earnings proximity from the provider's calendar; null when it has none for the symbol (or cannot answer now). */
async function earningsOf(deps: Deps, symbol: string, known: boolean): Promise<EarningsProximity | null> {
  const { marketData } = deps;
  if (!known || !marketData.provider.capabilities.has('earnings')) return null;
  try {
    const [reports, quote] = await Promise.all([marketData.capability('earnings')(symbol), marketData.snapshot(symbol)]);
    return earningsProximity(reports, newYorkDate(Date.parse(quote.ts)), ALERT_THRESHOLDS.earningsWithinTradingDays);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    deps.log.warn('explain: earnings unavailable', { symbol, error: error.message });
    return null;
  }
}

/**
 * The pattern's track record in the live ledger: in this band, and in every
 * band. A replay ledger's records would be appended here with `source: 'replay'`.
 */
async function historyOf(deps: Deps, patternType: string, band: string): Promise<HistoryRecord[]> {
  const book = await deps.ledgerFigures.book();
  return book.perHead(`explain:${patternType}:${band}`, async () => {
    const trades = book.ofPattern(patternType);
    return [
      historyRecord('live', { patternType, scoreBand: band }, performance(trades.filter((t) => t.scoreBand === band))),
      historyRecord('live', { patternType, scoreBand: null }, performance(trades)),
    ];
  });
}

function respond(e: Explanation): ExplainResponse {
  return {
    symbol: e.symbol,
    patternType: e.patternType,
    bullets: e.bullets,
    modelUsed: e.modelUsed,
    ...(e.cacheHitRatio === null ? {} : { cacheHitRatio: e.cacheHitRatio }),
    signalId: e.facts.signal.id,
    facts: e.facts,
    grounding: e.grounding,
    cached: e.cached,
    generatedAt: e.generatedAt,
  };
}
