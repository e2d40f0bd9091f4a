/**
 * @module console/app/types
 * The shapes the console reads from the API. The signal and the scorecard's
 * record figures are the server's own types (domain/signal,
 * ledger/record-figures: type imports, so nothing of the server is
 * bundled); the rest name only the fields the console reads, as the OpenAPI
 * document at /openapi/json describes them.
 */
import type { BreakoutState, Direction, PatternType, ScoreBand, Signal, Timeframe } from '../../domain/signal';
import type { RecordFigures } from '../../ledger/record-figures';

export type { BreakoutState, Direction, PatternType, ScoreBand, Signal, Timeframe };

/**
 * A closed union's values, checked against the server's type: the list
 * compiles only when it names every member (the server's own lists are not
 * imported as values, which would bundle its schema library into the page).
 */
const every =
  <T extends string>() =>
  <const L extends readonly T[]>(list: L & ([T] extends [L[number]] ? unknown : never)): L =>
    list;

export const TIMEFRAMES = every<Timeframe>()(['daily', '4h', '1h']);
export const SCORE_BANDS = every<ScoreBand>()(['elite', 'strong', 'watchlist', 'ignore']);
export const DIRECTIONS = every<Direction>()(['long', 'short']);
export const BREAKOUT_STATES = every<BreakoutState>()(['forming', 'triggered', 'confirmed', 'target_hit', 'stopped', 'failed', 'expired']);
export const PATTERN_TYPES = every<PatternType>()([
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
]);

export interface PageMeta {
  nextCursor: string | null;
  hasMore: boolean;
  total?: number;
  limit: number;
  order: 'asc' | 'desc';
}

export interface Envelope<T> {
  items: T[];
  pagination: PageMeta;
}

export interface BreakoutsPage extends Envelope<Signal> {
  generatedAt: string;
  asOf?: string;
  regime?: { regime: string; multiplier: number; reasons: string[] };
  latestPersistedRun?: { id: string; finishedAt: string; symbolsScanned: number; signalsFound: number; source: string } | null;
}

export interface StateChange {
  signalId: string;
  symbol: string;
  from: string;
  to: string;
  price: number;
  at: string;
}

export interface Bar {
  date: string;
  ts?: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/** A figure with its 95% interval (null where there are too few trades). */
export interface Interval {
  lower: number | null;
  upper: number | null;
}

export interface PerformanceFigures {
  signals: number;
  open: number;
  closed: number;
  wins: number;
  losses: number;
  scratches: number;
  hitRate: number | null;
  hitRateInterval: Interval;
  avgR: number | null;
  avgRInterval: Interval;
  totalR: number;
  profitFactor: number | null;
}

export interface ReliabilityBin {
  from: number;
  to: number;
  trades: number;
  predicted: number;
  observed: number;
  lower: number;
  upper: number;
}

export interface Scorecard {
  generatedAt: string;
  source: 'live' | 'replay';
  ledgerHead: { seq: number; hash: string } | null;
  allTime: PerformanceFigures;
  calibration: {
    byBand: Record<string, PerformanceFigures>;
    confidence: { trades: number; brier: number | null; baseRate: number | null; skill: number | null; reliability: ReliabilityBin[] };
    record: { method: { sameDay: string; intervals: string }; all: RecordFigures; byBand: Record<string, RecordFigures> };
  };
  /** One sentence from the bands' same-day lifts. */
  edge?: { statement: string };
  higherBandsDoBetter?: { verdict: string; statement: string };
  replay: { id: string; status: string; params: { from: string; to: string }; universe?: { survivorshipNote?: string } } | null;
  survivorshipBias: boolean;
  survivorshipNote?: string;
}
