/**
 * @module db/repositories/scan-rows
 * How scan runs and signal rows come back from the database: their typed
 * shapes and the checked mappers (domain/check) that validate stored JSON
 * instead of casting it.
 */
import { Type } from '@sinclair/typebox';
import { getTableColumns } from 'drizzle-orm';
import { storedAs } from '../../domain/check';
import {
  AlertVerdictsSchema,
  BREAKOUT_STATES,
  DIRECTIONS,
  literalUnion,
  PATTERN_FAMILIES,
  PATTERN_TYPES,
  RegimeReadingSchema,
  SCORE_BANDS,
  SignalGeometrySchema,
  SignalSchema,
  StaleSeriesSchema,
  type AlertVerdicts,
  type BreakoutState,
  type Direction,
  type RegimeReading,
  type Signal,
  type SignalGeometry,
  type StaleSeries,
  type Timeframe,
  TIMEFRAMES,
  TREND_REGIMES,
} from '../../domain/signal';
import { scanRuns, signals, type ScanRunRow, type SignalRow } from '../schema';

/** A run without its findings, its timeframe and stale series checked. */
export interface RunSummary extends Omit<ScanRunRow, 'findings' | 'regime' | 'alerts' | 'timeframe' | 'staleSeries'> {
  timeframe: Timeframe;
  /** Series the run left out as stale; null on runs persisted before they were stored. */
  staleSeries: StaleSeries[] | null;
}

/** A persisted run with its findings, regime and alert verdicts, typed. */
export interface PersistedRun extends RunSummary {
  regime: RegimeReading | null;
  signals: Signal[];
  /** Null on runs persisted before the verdicts were stored with the run. */
  alerts: AlertVerdicts | null;
}

/** A stored signal row with its JSON columns and closed values checked. */
export interface StoredSignal extends Omit<SignalRow, 'reasons' | 'geometry' | 'direction' | 'state' | 'stopLoss'> {
  direction: Direction;
  state: BreakoutState;
  /** Null when the setup had no stop (stored as NaN). */
  stopLoss: number | null;
  reasons: string[];
  geometry: SignalGeometry;
}

export const findingsOf = storedAs(Type.Array(SignalSchema));
export const regimeOf = storedAs(Type.Union([RegimeReadingSchema, Type.Null()]));
export const alertsOf = storedAs(Type.Union([AlertVerdictsSchema, Type.Null()]));
export const reasonsOf = storedAs(Type.Array(Type.String()));
export const geometryOf = storedAs(SignalGeometrySchema);
export const directionOf = storedAs(literalUnion(DIRECTIONS));
export const stateOf = storedAs(literalUnion(BREAKOUT_STATES));
export const timeframeOf = storedAs(literalUnion(TIMEFRAMES));
export const staleSeriesOf = storedAs(Type.Union([Type.Array(StaleSeriesSchema), Type.Null()]));
export const findingOf = storedAs(SignalSchema);
export const patternTypeOf = storedAs(literalUnion(PATTERN_TYPES));
export const patternFamilyOf = storedAs(literalUnion(PATTERN_FAMILIES));
export const trendRegimeOf = storedAs(literalUnion(TREND_REGIMES));
export const scoreBandOf = storedAs(literalUnion(SCORE_BANDS));

export function runSummary<R extends { id: string; timeframe: string; staleSeries: unknown }>(row: R): Omit<R, 'timeframe' | 'staleSeries'> & Pick<RunSummary, 'timeframe' | 'staleSeries'> {
  const what = `scan run ${row.id}`;
  return { ...row, timeframe: timeframeOf(row.timeframe, `${what} timeframe`), staleSeries: staleSeriesOf(row.staleSeries ?? null, `${what} stale series`) };
}

export function persistedRun(row: ScanRunRow): PersistedRun {
  const { findings, regime, alerts: verdicts, ...summary } = row;
  const what = `scan run ${row.id}`;
  return { ...runSummary(summary), signals: findingsOf(findings, `${what} findings`), regime: regimeOf(regime ?? null, `${what} regime`), alerts: alertsOf(verdicts ?? null, `${what} alerts`) };
}

/** A signal as its history lists it: every column but `geometry` (the chart's points, the widest column; decoding it on PGlite held the server's thread for a page of 200). */
export type HistoryRow = Omit<StoredSignal, 'geometry'>;

const { geometry: _geometry, ...historyColumnSet } = getTableColumns(signals);
export const historyColumns = historyColumnSet;

export function historyRow(row: Omit<SignalRow, 'geometry'>): HistoryRow {
  const what = `signal ${row.id}`;
  return {
    ...row,
    direction: directionOf(row.direction, `${what} direction`),
    state: stateOf(row.state, `${what} state`),
    stopLoss: Number.isFinite(row.stopLoss) ? row.stopLoss : null,
    reasons: reasonsOf(row.reasons, `${what} reasons`),
  };
}

export function storedSignal(row: SignalRow): StoredSignal {
  return { ...historyRow(row), geometry: geometryOf(row.geometry, `signal ${row.id} geometry`) };
}

export const summaryColumns = {
  id: scanRuns.id,
  timeframe: scanRuns.timeframe,
  asOf: scanRuns.asOf,
  startedAt: scanRuns.startedAt,
  finishedAt: scanRuns.finishedAt,
  status: scanRuns.status,
  symbolsScanned: scanRuns.symbolsScanned,
  signalsFound: scanRuns.signalsFound,
  durationMs: scanRuns.durationMs,
  error: scanRuns.error,
  source: scanRuns.source,
  staleSeries: scanRuns.staleSeries,
};

/**
 * A value as a `jsonb` column gives it back: through JSON (undefined dropped, a Date as its ISO text, a non-finite
 * number as null) with every object's keys in jsonb's order — shorter keys first, then by their bytes (PostgreSQL's
 * jsonb stores keys so: `lengthCompareJsonbStringValue`, src/backend/utils/adt/jsonb_util.c). What a reader of a run
 * just saved would read back (jobs/runs keeps it instead of reading 460 KB of findings again; issue 27).
 */
export function asStoredJsonb<T>(value: T): T {
  if (value === undefined) return value;
  return JSON.parse(JSON.stringify(value), (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const keys = Object.keys(v).sort(jsonbKeyOrder);
    return Object.fromEntries(keys.map((k) => [k, (v as Record<string, unknown>)[k]]));
  }) as T;
}

const utf8 = new TextEncoder();
function jsonbKeyOrder(a: string, b: string): number {
  const [x, y] = [utf8.encode(a), utf8.encode(b)];
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
