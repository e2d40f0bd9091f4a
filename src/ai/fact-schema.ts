/**
 * @module ai/fact-schema
 * The shape of the facts an explanation is written from (ai/facts builds
 * them): the TypeBox schemas, which are also the OpenAPI document's
 * `facts`, and the service's fixed scales given with every signal.
 */
import { Type, type Static } from '@sinclair/typebox';
import { literalUnion, ScoreComponentsSchema } from '../domain/signal';
import { BAND_FLOORS } from '../kernels/scoring';

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
    hitRateLowPct: Num('Lower bound of its weekly-clustered 95% interval, %'),
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
