/**
 * @module ai/facts
 * The structured facts an explanation is written from, and the only numbers
 * it may state (ai/grounding). Every figure is computed here or by the
 * services that own it, already in the unit a sentence would use (percent,
 * millions of dollars, R), and rounded for reading: the model copies numbers,
 * it never derives them.
 *
 * Derived levels (the percentages are of the trigger, in the setup's direction):
 *
 * ```
 * targetPct  = |target1 − trigger| ÷ trigger × 100
 * riskPct    = |trigger − stopLoss| ÷ trigger × 100
 * rewardRisk = |target1 − trigger| ÷ |trigger − stopLoss|   (null when the risk is under 0.01% of the trigger:
 *                                                        the ratio would be unbounded, e.g. 1.4e21)
 * ```
 *
 * `history` is a list of track records, each naming its `source` ledger
 * (`live` today; a `replay` ledger's records can be appended beside it) and
 * its `scope` (this pattern in this score band, and the pattern in every band).
 */
import { createHash } from 'node:crypto';
import type { EarningsProximity } from '../domain/earnings';
import type { ExplainableSignal } from '../domain/explanation';
import type { RegimeReading } from '../domain/signal';
import { signalId } from '../domain/signal-id';
import { round, roundOrNull } from '../kernels/round';
import { scoreBand } from '../kernels/scoring';
import { canonicalJson } from '../ledger/canonical';
import type { Performance } from '../ledger/performance';
import { DEFINITIONS, type ExplainFacts, type HistoryRecord, type HistorySource, type NewsFact, type SectorRotation } from './fact-schema';


/** What the facts are built from: the signal and what the services know around it. */
export interface FactSources {
  signal: ExplainableSignal;
  /** When the signal's figures were read (the scan's bar time), when known. */
  asOf: string | null;
  instrument: { name: string; sector: string | null } | null;
  sectorEtf: string | null;
  sectorRotation: SectorRotation | null;
  /** A client's `sectorCtx` (POST); only primitive members are kept. */
  sectorContext?: Record<string, unknown>;
  regime: RegimeReading | null;
  earnings: EarningsProximity | null;
  history: HistoryRecord[];
  /** A client's `news` items (POST). */
  news?: Record<string, unknown>[];
}

/** News items and client context kept at most, and the longest text kept of each. */
const MAX_NEWS = 10;
const MAX_CLIENT_KEYS = 24;
const MAX_TEXT = 300;

/** The id a signal is explained under: its own, else DESIGN §4's from its fields (domain/signal-id; `undated` without `detectedAt`). */
export function explainedId(signal: ExplainableSignal): string {
  return signal.id ?? signalId(signal.symbol, signal.patternType, signal.detectedAt ?? 'undated', signal.timeframe);
}

export function buildFacts(sources: FactSources): ExplainFacts {
  const s = sources.signal;
  /** Below this risk (a fraction of the trigger), no reward-to-risk ratio is stated. */
  const MIN_RISK_FRACTION = 1e-4;
  const trigger = s.triggerPrice ?? null;
  const target = s.target1 ?? null;
  const stop = s.stopLoss ?? null;
  const reward = trigger !== null && target !== null ? Math.abs(target - trigger) : null;
  const risk = trigger !== null && stop !== null ? Math.abs(trigger - stop) : null;
  const pctOfTrigger = (x: number | null) => (x === null || trigger === null || trigger === 0 ? null : round((x / trigger) * 100, 2));
  const regime = sources.regime;
  return {
    definitions: DEFINITIONS,
    signal: {
      id: explainedId(s),
      symbol: s.symbol,
      name: sources.instrument?.name ?? null,
      timeframe: s.timeframe,
      patternType: s.patternType,
      patternFamily: s.patternFamily ?? null,
      direction: s.direction,
      breakoutState: s.breakoutState ?? null,
      scoreBand: s.scoreBand ?? scoreBand(s.finalScore),
      finalScore: round(s.finalScore, 1),
      confidencePct: s.confidence === undefined ? null : round(s.confidence * 100, 0),
      detectedAt: s.detectedAt ?? null,
      asOf: sources.asOf?.slice(0, 10) ?? null,
      price: roundOrNull(s.price ?? null, 2),
      distancePct: roundOrNull(s.distancePct ?? null, 2),
    },
    levels: {
      trigger: roundOrNull(trigger, 2),
      target1: roundOrNull(target, 2),
      stopLoss: roundOrNull(stop, 2),
      targetPct: pctOfTrigger(reward),
      riskPct: pctOfTrigger(risk),
      rewardRisk: reward !== null && risk !== null && trigger && risk / Math.abs(trigger) >= MIN_RISK_FRACTION ? round(reward / risk, 2) : null,
    },
    geometry: s.geometry
      ? { start: s.geometry.start.slice(0, 10), end: s.geometry.end.slice(0, 10), lengthBars: s.geometry.lengthBars, depthPct: round(s.geometry.depthPct, 1), contractions: s.geometry.contractions }
      : null,
    volume: {
      breakoutVolumeRatio: roundOrNull(s.breakoutVolumeRatio ?? null, 2),
      avgDollarVolumeMillions: s.avgDollarVolume === undefined || s.avgDollarVolume === null ? null : round(s.avgDollarVolume / 1e6, 1),
    },
    relativeStrength: { rsRank: roundOrNull(s.rsRank ?? null, 0) },
    scoreComponents: s.components ? (Object.fromEntries(Object.entries(s.components).map(([k, v]) => [k, roundOrNull(v, 2)])) as ExplainFacts['scoreComponents']) : null,
    reasons: (s.reasons ?? []).map((r) => r.slice(0, MAX_TEXT)),
    regime: {
      market: regime?.regime ?? null,
      longMultiplier: roundOrNull(regime?.multiplier ?? null, 2),
      shortMultiplier: roundOrNull(regime?.shortMultiplier ?? null, 2),
      breadthPct: regime?.breadth === null || regime?.breadth === undefined ? null : round(regime.breadth * 100, 0),
      distributionDays: regime?.distributionDays ?? null,
      symbolTrend: s.trendRegime ?? null,
      reasons: regime?.reasons ?? [],
    },
    sector: { name: sources.instrument?.sector ?? null, sectorEtf: sources.sectorEtf, rotation: sources.sectorRotation, client: clientContext(sources.sectorContext) },
    earnings: sources.earnings
      ? {
          nextReport: sources.earnings.nextReport,
          timing: sources.earnings.timing,
          tradingDaysUntil: sources.earnings.tradingDaysUntil,
          calendarDaysUntil: sources.earnings.calendarDaysUntil,
          withinHoldingWindow: sources.earnings.withinHoldingWindow,
          holdingWindowTradingDays: sources.earnings.holdingWindowTradingDays,
          blocksAlerts: sources.earnings.blocksAlerts,
          alertBlockTradingDays: sources.earnings.alertBlockTradingDays,
          lastReport: sources.earnings.lastReport,
          tradingDaysSinceLast: sources.earnings.tradingDaysSinceLast,
        }
      : null,
    history: sources.history,
    news: (sources.news ?? []).slice(0, MAX_NEWS).map(newsFact),
  };
}

/** A track record of `performance` (ledger/performance) as facts, percentages of the rates. */
export function historyRecord(source: HistorySource, scope: { patternType: string; scoreBand: string | null }, p: Performance): HistoryRecord {
  const pct = (x: number | null) => (x === null ? null : round(x * 100, 1));
  return {
    source,
    scope: scope.scoreBand === null ? 'pattern' : 'pattern_and_band',
    patternType: scope.patternType,
    scoreBand: scope.scoreBand,
    signals: p.signals,
    open: p.open,
    closed: p.closed,
    wins: p.wins,
    losses: p.losses,
    scratches: p.scratches,
    hitRatePct: pct(p.hitRate),
    hitRateLowPct: pct(p.hitRateInterval.lower),
    hitRateHighPct: pct(p.hitRateInterval.upper),
    avgR: roundOrNull(p.avgR, 2),
    totalR: round(p.totalR, 2),
    profitFactor: roundOrNull(p.profitFactor, 2),
    avgDaysHeld: roundOrNull(p.avgDaysHeld, 1),
  };
}

/** SHA-256 of the facts' canonical JSON (RFC 8785): the cache key's content part. */
export function factsHash(facts: ExplainFacts): string {
  return createHash('sha256').update(canonicalJson(facts)).digest('hex');
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, MAX_TEXT) : null);

/** A client's news item: the common names of each field (headline/title, source/publisher, publishedAt/date/datetime, summary/description). */
function newsFact(item: Record<string, unknown>): NewsFact {
  return {
    headline: text(item.headline) ?? text(item.title),
    source: text(item.source) ?? text(item.publisher),
    publishedAt: text(item.publishedAt) ?? text(item.date) ?? text(item.datetime) ?? text(item.time),
    summary: text(item.summary) ?? text(item.description),
  };
}

function clientContext(context: Record<string, unknown> | undefined): Record<string, string | number | boolean | null> | null {
  if (!context) return null;
  const out: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(context).slice(0, MAX_CLIENT_KEYS)) {
    if (typeof value === 'number' && Number.isFinite(value)) out[key.slice(0, 60)] = value;
    else if (typeof value === 'boolean' || value === null) out[key.slice(0, 60)] = value;
    else if (typeof value === 'string') out[key.slice(0, 60)] = value.slice(0, MAX_TEXT);
  }
  return Object.keys(out).length > 0 ? out : null;
}
