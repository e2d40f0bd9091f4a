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
 * rewardRisk = |target1 − trigger| ÷ |trigger − stopLoss|
 * ```
 *
 * `history` is a list of track records, each naming its `source` ledger
 * (`live` today; a `replay` ledger's records can be appended beside it) and
 * its `scope` (this pattern in this score band, and the pattern in every band).
 */
import { createHash } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { EarningsProximity } from '../domain/earnings';
import type { ExplainableSignal } from '../domain/explanation';
import { literalUnion, ScoreComponentsSchema, signalId, type RegimeReading } from '../domain/signal';
import { round, roundOrNull } from '../kernels/round';
import { BAND_FLOORS, scoreBand } from '../kernels/scoring';
import { canonicalJson } from '../ledger/canonical';
import type { Performance } from '../ledger/performance';

const Num = (description?: string) => Type.Union([Type.Number(), Type.Null()], description ? { description } : {});
const Int = (description?: string) => Type.Union([Type.Integer(), Type.Null()], description ? { description } : {});
const Str = (description?: string) => Type.Union([Type.String(), Type.Null()], description ? { description } : {});

/** Which ledger a track record comes from (DESIGN §4: live and replay chains are never mixed). */
export const HISTORY_SOURCES = ['live', 'replay'] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

export const HistoryRecordSchema = Type.Object(
  {
    source: literalUnion(HISTORY_SOURCES, { description: 'The ledger the figures come from' }),
    scope: literalUnion(['pattern_and_band', 'pattern'] as const, { description: 'This pattern in this score band, or the pattern in every band' }),
    patternType: Type.String(),
    scoreBand: Str('Null when the scope is the pattern in every band'),
    signals: Type.Integer(),
    open: Type.Integer(),
    closed: Type.Integer({ description: 'Entered signals with a final outcome' }),
    wins: Type.Integer(),
    losses: Type.Integer(),
    scratches: Type.Integer(),
    hitRatePct: Num('wins ÷ closed, %'),
    hitRateLowPct: Num('Lower bound of its 95% Wilson interval, %'),
    hitRateHighPct: Num('Upper bound, %'),
    avgR: Num('Mean R-multiple of closed trades'),
    totalR: Type.Number(),
    profitFactor: Num(),
    avgDaysHeld: Num(),
  },
  { title: 'HistoryRecord' },
);
export type HistoryRecord = Static<typeof HistoryRecordSchema>;

export const NewsFactSchema = Type.Object({ headline: Str(), source: Str(), publishedAt: Str(), summary: Str() }, { title: 'NewsFact' });
export type NewsFact = Static<typeof NewsFactSchema>;

export const SectorRotationSchema = Type.Object(
  {
    benchmark: Type.String(),
    asOf: Type.String({ description: 'Bar date of the reading' }),
    quadrant: Type.String({ description: 'leading | weakening | lagging | improving' }),
    rsRatio: Type.Number({ description: 'RS-Ratio, 100 = in line with the benchmark' }),
    rsMomentum: Type.Number({ description: 'RS-Momentum, 100 = steady' }),
    relative1mPct: Num('Sector fund return minus the benchmark’s over 21 sessions, points'),
    relative3mPct: Num('The same over 63 sessions'),
  },
  { title: 'SectorRotation', description: "The sector fund's Relative Rotation Graph reading against the benchmark (kernels/rotation)" },
);
export type SectorRotation = Static<typeof SectorRotationSchema>;

const ClientValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

/**
 * The service's fixed scales and thresholds, given with every signal so an
 * explanation that names one ("RS rank 92 on a 1–99 scale") is grounded too.
 * Closed trades under which a record is thin: the scorecard's minimum per band
 * (kernels/stats/monotonicity, 20).
 */
export const DEFINITIONS = {
  scoreRange: [0, 100],
  bandFloors: Object.fromEntries(BAND_FLOORS.filter(([, floor]) => Number.isFinite(floor))),
  rsRankRange: [1, 99],
  componentRange: [0, 1],
  volumeAverageBars: 50,
  thinRecordBelowClosed: 20,
};

export const ExplainFactsSchema = Type.Object(
  {
    definitions: Type.Object({
      scoreRange: Type.Array(Type.Number()),
      bandFloors: Type.Record(Type.String(), Type.Number()),
      rsRankRange: Type.Array(Type.Number()),
      componentRange: Type.Array(Type.Number()),
      volumeAverageBars: Type.Integer(),
      thinRecordBelowClosed: Type.Integer(),
    }),
    signal: Type.Object({
      id: Type.String(),
      symbol: Type.String(),
      name: Str('Company or fund name'),
      timeframe: Type.String(),
      patternType: Type.String(),
      patternFamily: Str(),
      direction: Type.String(),
      breakoutState: Str(),
      scoreBand: Type.String(),
      finalScore: Type.Number(),
      confidencePct: Num(),
      detectedAt: Str(),
      asOf: Str('Bar date the figures stand on (the scan that last saw the signal)'),
      price: Num('Close at the scan'),
      distancePct: Num('Distance of that close beyond the trigger in the setup’s direction, %'),
    }),
    levels: Type.Object({
      trigger: Num(),
      target1: Num(),
      stopLoss: Num(),
      targetPct: Num('|target1 − trigger| ÷ trigger, %'),
      riskPct: Num('|trigger − stopLoss| ÷ trigger, %'),
      rewardRisk: Num('|target1 − trigger| ÷ |trigger − stopLoss|'),
    }),
    geometry: Type.Union([
      Type.Object({ start: Type.String(), end: Type.String(), lengthBars: Type.Integer(), depthPct: Type.Number(), contractions: Type.Integer() }),
      Type.Null(),
    ]),
    volume: Type.Object({ breakoutVolumeRatio: Num('Breakout bar volume ÷ its 50-bar average'), avgDollarVolumeMillions: Num('50-bar average close × volume, $M') }),
    relativeStrength: Type.Object({ rsRank: Num('RS rank 1–99 in the universe') }),
    scoreComponents: Type.Union([ScoreComponentsSchema, Type.Null()]),
    reasons: Type.Array(Type.String()),
    regime: Type.Object({
      market: Str('risk_on | neutral | risk_off'),
      longMultiplier: Num(),
      shortMultiplier: Num(),
      breadthPct: Num('Share of the universe above its 50-bar SMA, %'),
      distributionDays: Int(),
      symbolTrend: Str('uptrend | downtrend | sideways'),
      reasons: Type.Array(Type.String()),
    }),
    sector: Type.Object({
      name: Str(),
      sectorEtf: Str(),
      rotation: Type.Union([SectorRotationSchema, Type.Null()]),
      client: Type.Union([Type.Record(Type.String(), ClientValue), Type.Null()], { description: 'sectorCtx as the client sent it (primitive members only)' }),
    }),
    earnings: Type.Union([
      Type.Object({
        nextReport: Str(),
        timing: Str(),
        tradingDaysUntil: Int(),
        calendarDaysUntil: Int(),
        withinHoldingWindow: Type.Boolean(),
        holdingWindowTradingDays: Type.Integer(),
        blocksAlerts: Type.Boolean(),
        alertBlockTradingDays: Type.Integer(),
        lastReport: Str(),
        tradingDaysSinceLast: Int(),
      }),
      Type.Null(),
    ]),
    history: Type.Array(HistoryRecordSchema),
    news: Type.Array(NewsFactSchema),
  },
  { title: 'ExplainFacts', description: 'The structured facts given to the model: every number a bullet states matches one of these' },
);
export type ExplainFacts = Static<typeof ExplainFactsSchema>;

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

/** The id a signal is explained under: its own, else DESIGN §4's from its fields (`undated` without `detectedAt`). */
export function explainedId(signal: ExplainableSignal): string {
  return signal.id ?? signalId(signal.symbol, signal.patternType, signal.detectedAt ?? 'undated');
}

export function buildFacts(sources: FactSources): ExplainFacts {
  const s = sources.signal;
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
      rewardRisk: reward !== null && risk ? round(reward / risk, 2) : null,
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
