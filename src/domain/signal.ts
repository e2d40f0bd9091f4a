/**
 * @module domain/signal
 * The domain types every layer shares: the closed unions of a breakout signal
 * (timeframe, pattern type and family, direction, lifecycle state, score band,
 * trend and market regime), the signal itself as a TypeBox schema whose static
 * type is `Signal`, and what a universe scan produces. DESIGN §4 fixes the
 * values. This file imports nothing from src/, so kernels, providers,
 * repositories, jobs and modules all take their types from here.
 */
import { Type, type Static, type TLiteral, type TUnion } from '@sinclair/typebox';

/** One `TLiteral` per value of a tuple, as a tuple. */
type Literals<V extends readonly (string | number)[]> = { -readonly [K in keyof V]: TLiteral<V[K]> };

/**
 * A closed set of string (or number) literals as a TypeBox union; its static
 * type is the union of the values. Typed as a tuple of literals, as TypeBox
 * builds it, so Elysia's response typing (which does not resolve a union over
 * an array of literals) sees the values too.
 */
export function literalUnion<const V extends readonly (string | number)[]>(values: V, options: { description?: string; title?: string } = {}): TUnion<Literals<V>> {
  const members: TLiteral[] = values.map((v) => Type.Literal(v));
  return Type.Union(members, options) as unknown as TUnion<Literals<V>>;
}

/** Bar interval; names follow the public spec. */
export const TIMEFRAMES = ['daily', '4h', '1h'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

export const DIRECTIONS = ['long', 'short'] as const;
export type Direction = (typeof DIRECTIONS)[number];

/** The pattern types of DESIGN §4, by family (direction in the detector). */
export const PATTERN_TYPES = [
  'flat_base',
  'cup_with_handle',
  'double_bottom',
  'vcp',
  'bull_flag',
  'high_tight_flag',
  'ascending_triangle',
  'bear_flag',
  'descending_triangle',
  'range_breakout',
  'range_breakdown',
  'donchian_55',
  'new_high_52w',
  'gap_and_go',
] as const;
export type PatternType = (typeof PATTERN_TYPES)[number];

export const PATTERN_FAMILIES = ['base', 'continuation', 'range', 'momentum'] as const;
export type PatternFamily = (typeof PATTERN_FAMILIES)[number];

/** The lifecycle states (DESIGN §4); kernels/lifecycle holds the transitions. */
export const BREAKOUT_STATES = ['forming', 'triggered', 'confirmed', 'target_hit', 'stopped', 'failed', 'expired'] as const;
export type BreakoutState = (typeof BREAKOUT_STATES)[number];
export const TERMINAL_STATES: ReadonlySet<BreakoutState> = new Set(['target_hit', 'stopped', 'failed', 'expired']);

/** Score bands, best first (elite ≥ 85, strong ≥ 70, watchlist ≥ 55, ignore below). */
export const SCORE_BANDS = ['elite', 'strong', 'watchlist', 'ignore'] as const;
export type ScoreBand = (typeof SCORE_BANDS)[number];

/** A symbol's trend from its moving-average stack and slope. */
export const TREND_REGIMES = ['uptrend', 'downtrend', 'sideways'] as const;
export type TrendRegime = (typeof TREND_REGIMES)[number];

/** The market's regime from the benchmark, breadth and distribution days. */
export const MARKET_REGIMES = ['risk_on', 'neutral', 'risk_off'] as const;
export type MarketRegime = (typeof MARKET_REGIMES)[number];

/** The components of `finalScore` (kernels/scoring weighs them). */
export const SCORE_COMPONENTS = ['patternQuality', 'breakoutVolume', 'rsRank', 'trendTemplate', 'proximity', 'tightness', 'regime'] as const;
export type ScoreComponent = (typeof SCORE_COMPONENTS)[number];

const NullableNumber = (description?: string) => Type.Union([Type.Number(), Type.Null()], description ? { description } : {});

export const SignalGeometrySchema = Type.Object(
  {
    start: Type.String({ format: 'date-time', description: "Time of the pattern's first bar" }),
    end: Type.String({ format: 'date-time', description: "Time of the pattern's last bar" }),
    depthPct: Type.Number({ description: '(highest high − lowest low) ÷ highest high, %' }),
    lengthBars: Type.Integer(),
    contractions: Type.Integer({ description: 'Successive contractions (VCP pullbacks, triangle touches); 0 where it means nothing' }),
  },
  { title: 'SignalGeometry' },
);
export type SignalGeometry = Static<typeof SignalGeometrySchema>;

export const ScoreComponentsSchema = Type.Object(
  Object.fromEntries(SCORE_COMPONENTS.map((name) => [name, NullableNumber()])) as Record<ScoreComponent, ReturnType<typeof NullableNumber>>,
  { title: 'ScoreComponents', description: 'Each component in [0, 1], null without data (kernels/scoring weighs them)' },
);

/** A BreakoutSignal as the spec names its fields, plus our documented extras. */
export const SignalSchema = Type.Object(
  {
    id: Type.String({ description: 'SYMBOL-pattern-detectedAt' }),
    symbol: Type.String(),
    timeframe: literalUnion(TIMEFRAMES),
    patternFamily: literalUnion(PATTERN_FAMILIES),
    patternType: literalUnion(PATTERN_TYPES),
    direction: literalUnion(DIRECTIONS),
    trendRegime: literalUnion(TREND_REGIMES),
    breakoutState: literalUnion(BREAKOUT_STATES),
    triggerPrice: Type.Number(),
    target1: Type.Number(),
    stopLoss: NullableNumber(),
    finalScore: Type.Number({
      minimum: 0,
      maximum: 100,
      description:
        "How reachable target1 is, as the record shows it: the fitted score (kernels/score-table, fitted on the replayed history 2005–2016) ranks setups by their expected R and chance of a recorded win. It is not edge: out of sample no band beats random entries with the same geometry on the same day (/api/scorecard `edge` says what the current record shows)",
    }),
    confidence: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        'The calibrated probability that the ledger records a win (target1 before the stop while the lifecycle holds), from the fitted model; judged in /api/scorecard `calibration.confidence` (Brier score and reliability)',
    }),
    scoreBand: literalUnion(SCORE_BANDS, { description: 'elite ≥ 85, strong ≥ 70, watchlist ≥ 55, ignore' }),
    reasons: Type.Array(Type.String()),
    detectedAt: Type.String({ format: 'date-time' }),
    price: Type.Number({ description: 'Close at the scan' }),
    distancePct: Type.Number({ description: 'Distance of that close beyond the trigger in the setup’s direction, %' }),
    breakoutVolumeRatio: NullableNumber('Breakout bar volume ÷ its 50-bar average, once triggered'),
    rsRank: NullableNumber('IBD-style RS rank 1–99 in the universe'),
    avgDollarVolume: NullableNumber('50-bar average close × volume, USD'),
    geometry: SignalGeometrySchema,
    components: ScoreComponentsSchema,
  },
  { title: 'BreakoutSignal' },
);
export type Signal = Static<typeof SignalSchema>;

export const RegimeReadingSchema = Type.Object(
  {
    regime: literalUnion(MARKET_REGIMES),
    multiplier: Type.Number({ description: 'Multiplier of long scores' }),
    shortMultiplier: Type.Number({ description: 'Multiplier of short scores' }),
    points: Type.Number(),
    distributionDays: Type.Integer(),
    breadth: NullableNumber('Share of the universe above its 50-bar SMA, 0..1'),
    reasons: Type.Array(Type.String()),
  },
  { title: 'MarketRegime' },
);
/** The market regime reading of a scan (kernels/regime computes it). */
export type RegimeReading = Static<typeof RegimeReadingSchema>;

/** Minervini's trend template as of a bar (kernels/trend computes it). */
export const TrendTemplateSchema = Type.Object(
  {
    passed: Type.Boolean({ description: 'All eight criteria met' }),
    met: Type.Integer({ minimum: 0, maximum: 8 }),
    failed: Type.Array(Type.String(), { description: 'The criteria not met, in words' }),
  },
  { title: 'TrendTemplate' },
);
export type TrendTemplate = Static<typeof TrendTemplateSchema>;

/** One symbol's cross-sectional inputs of a scan (RS, breadth, liquidity), computed in the worker pool. */
export interface SymbolStats {
  symbol: string;
  /** Bar time the symbol stands on at asOf, or null without bars. */
  barTs: number | null;
  rsScore: number;
  /** Close above its 50-bar average (null with < 50 bars). */
  aboveSma50: boolean | null;
  /** Average close × volume over the last 50 bars. */
  avgDollarVolume50: number;
  close: number;
}

/** A symbol's trend as of the scan: Minervini's template and the trend regime. */
export interface SymbolProfile {
  symbol: string;
  trendTemplate: TrendTemplate;
  trendRegime: TrendRegime;
}

/** A live setup as the worker pool reports it (bar indices already turned into times); jobs/scan makes it a `Signal`. */
export interface ScanFinding {
  symbol: string;
  patternType: PatternType;
  patternFamily: PatternFamily;
  direction: Direction;
  state: BreakoutState;
  trendRegime: TrendRegime;
  pivot: number;
  target1: number;
  stopLoss: number;
  finalScore: number;
  confidence: number;
  band: ScoreBand;
  components: Record<ScoreComponent, number | null>;
  reasons: string[];
  detectedTs: number;
  barTs: number;
  close: number;
  distancePct: number;
  breakoutVolumeRatio: number | null;
  geometry: { startTs: number; endTs: number; depthPct: number; lengthBars: number; contractions: number };
}

/**
 * A series left out of a scan because its data ended too long before the bar
 * the scan stood on (jobs/scan `staleSeries` defines "too long" per
 * timeframe): stored with the run and shown in its summary.
 */
export const StaleSeriesSchema = Type.Object(
  {
    symbol: Type.String(),
    lastBar: Type.String({ format: 'date-time', description: "Time of the series' last bar at or before the scan's as-of" }),
    barsBehind: Type.Integer({ minimum: 1, description: "The benchmark's bars after that bar, up to the scan's as-of bar" }),
  },
  { title: 'StaleSeries' },
);
export type StaleSeries = Static<typeof StaleSeriesSchema>;

/** What one universe scan produced, as of the bar it stood on. */
export interface ScanResult {
  timeframe: Timeframe;
  asOf: string;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  symbolsScanned: number;
  regime: RegimeReading | null;
  breadth: number | null;
  /** Ranked best first (finalScore, then id). */
  signals: Signal[];
  /** RS rank, liquidity and trend of every symbol scanned (the universe scan reuses them). */
  stats: (SymbolStats & { rsRank: number | null; profile: SymbolProfile | null })[];
  /** Series left out because their data ended before the as-of bar, by symbol. */
  staleSeries: StaleSeries[];
}

/** A persisted, still-open signal whose lifecycle the pool replays (jobs/scan's state tracking). */
export interface OpenSetup {
  id: string;
  symbol: string;
  direction: Direction;
  trigger: number;
  target1: number;
  stopLoss: number;
  /** Bar time of the pattern's last bar; the lifecycle replays from the bar after it. */
  patternEndTs: number;
  /** The pattern's depth in percent (its geometry), for a failure rule that reads it (kernels/lifecycle). */
  depthPct?: number;
}

/** A ledger signal to resolve against the bars after its entry (jobs/outcomes → the pool). */
export interface OutcomeItem {
  signalId: string;
  symbol: string;
  timeframe: Timeframe;
  direction: Direction;
  /** Price and bar time of the entry: resolution reads only the bars after it. */
  entry: number;
  entryTs: number;
  target1: number;
  stopLoss: number;
  /** A terminal lifecycle state (`failed`/`expired` make a scratch) and the bar time it was reached. */
  state?: BreakoutState;
  stateTs?: number;
}

/**
 * The signal part of a ledger record: what was known when the signal was
 * first surfaced (the hashed body's `data`, ledger records of kind `signal`).
 * The fields the outcome job reads are required; the descriptive rest, which
 * records of every age carry, is optional.
 */
export const SignalRecordSchema = Type.Object(
  {
    id: Type.String(),
    symbol: Type.String(),
    timeframe: literalUnion(TIMEFRAMES),
    patternType: Type.String(),
    direction: literalUnion(DIRECTIONS),
    detectedAt: Type.String(),
    surfacedAt: Type.String(),
    state: Type.String(),
    triggerPrice: Type.Number(),
    target1: Type.Number(),
    stopLoss: NullableNumber(),
    finalScore: Type.Number(),
    scoreBand: Type.String(),
    priceAtDetection: Type.Number(),
    patternFamily: Type.Optional(Type.String()),
    confidence: Type.Optional(Type.Number()),
    reasons: Type.Optional(Type.Array(Type.String())),
    trendRegime: Type.Optional(Type.String()),
    regime: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    source: Type.Optional(Type.String()),
    runId: Type.Optional(Type.String()),
  },
  { title: 'SignalRecord', additionalProperties: true },
);
export type SignalRecord = Static<typeof SignalRecordSchema>;

/** Why an alert candidate is blocked (DESIGN §4 "Alerts"). */
export const ALERT_BLOCKS = ['extended', 'illiquid', 'regime', 'earnings', 'cooldown'] as const;
export type AlertBlock = (typeof ALERT_BLOCKS)[number];

/** The alert policy's word on a signal when it was surfaced (kept on its ledger record as `alert`). */
export interface AlertNote {
  verdict: 'candidate' | 'blocked' | 'not_eligible';
  codes: string[];
}

/**
 * The alert policy's verdict on a scan's signals, by signal id: the
 * candidates in rank order, and the blocked ones with each reason (its code
 * and its sentence). Stored with a persisted run, so a read never evaluates
 * the policy again.
 */
export const AlertVerdictsSchema = Type.Object(
  {
    candidates: Type.Array(Type.String()),
    blocked: Type.Array(Type.Object({ signalId: Type.String(), codes: Type.Array(literalUnion(ALERT_BLOCKS)), reasons: Type.Array(Type.String()) })),
  },
  { title: 'AlertVerdicts' },
);
export type AlertVerdicts = Static<typeof AlertVerdictsSchema>;
