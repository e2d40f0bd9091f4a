/**
 * @module providers/synthetic/held-path
 * A symbol's daily path as the provider holds it between requests: half the
 * bytes of the drawn `DailyPath`, the same numbers.
 *
 * Every price of a path is rounded to cents (`cents()` in paths.ts: k / 100
 * for an integer k), so the integer k = round(price · 100) gives back the
 * very same double as k / 100; volumes are whole shares. Prices are then kept
 * as Int32 cents and volumes as Uint32: 20 bytes a session instead of 40
 * (531 symbols of about 2,000 sessions: ~21 MB less resident, issue 13). A
 * path any of whose values would not come back bit for bit (none today; the
 * check runs on every path) is held as drawn.
 *
 * Readers take one session at a time (`open(t)` …, quotes and intraday grids)
 * or the first `n` sessions as new Float64 columns (`ohlcv`, the daily bars a
 * request is served).
 */
import type { Ohlcv } from '../../kernels/ohlcv';
import type { DailyPath } from './paths';
import type { PatternRecord } from './records';

/** One session's values, read by index (a held path, or a drawn one through {@link drawnSessions}). */
export interface PathSessions {
  open(t: number): number;
  high(t: number): number;
  low(t: number): number;
  close(t: number): number;
  volume(t: number): number;
}

/** What a held path is made of: plain typed arrays, so it crosses threads (transferred) and is rebuilt with {@link HeldPath.from}. */
export interface HeldPathParts {
  /** Sessions held. */
  length: number;
  /** Open, high, low, close in cents, session-major (4 a session); undefined when the path is held as drawn. */
  cents?: Int32Array;
  volume?: Uint32Array;
  /** The path as drawn, when its values do not all fit the compact form. */
  drawn?: Omit<DailyPath, 'patterns' | 'earnings'>;
  patterns: PatternRecord[];
  earnings: number[];
}

const PRICE_COLUMNS = ['open', 'high', 'low', 'close'] as const;

/** A drawn path read by session. */
export function drawnSessions(daily: Omit<DailyPath, 'patterns' | 'earnings'>): PathSessions {
  return {
    open: (t) => daily.open[t]!,
    high: (t) => daily.high[t]!,
    low: (t) => daily.low[t]!,
    close: (t) => daily.close[t]!,
    volume: (t) => daily.volume[t]!,
  };
}

/** The compact columns of `daily`, or undefined when a value would not come back exactly. */
function compact(daily: DailyPath): { cents: Int32Array; volume: Uint32Array } | undefined {
  const n = daily.close.length;
  const cents = new Int32Array(n * 4);
  const volume = new Uint32Array(n);
  for (let t = 0; t < n; t++) {
    for (let c = 0; c < 4; c++) {
      const price = daily[PRICE_COLUMNS[c]!][t]!;
      const k = Math.round(price * 100);
      if (k / 100 !== price || k > 0x7fffffff || k < -0x80000000) return undefined;
      cents[t * 4 + c] = k;
    }
    const v = daily.volume[t]!;
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) return undefined;
    volume[t] = v;
  }
  return { cents, volume };
}

export class HeldPath implements PathSessions {
  readonly length: number;
  readonly patterns: PatternRecord[];
  /** Session indices of earnings reports inside the path. */
  readonly earnings: number[];
  private readonly cents?: Int32Array;
  private readonly volumes?: Uint32Array;
  private readonly drawn?: PathSessions & { path: Omit<DailyPath, 'patterns' | 'earnings'> };

  private constructor(parts: HeldPathParts) {
    this.length = parts.length;
    this.patterns = parts.patterns;
    this.earnings = parts.earnings;
    this.cents = parts.cents;
    this.volumes = parts.volume;
    if (parts.drawn) this.drawn = { ...drawnSessions(parts.drawn), path: parts.drawn };
  }

  /** The parts of `daily` held compactly (as drawn when it does not fit). */
  static partsOf(daily: DailyPath): HeldPathParts {
    const { patterns, earnings } = daily;
    const length = daily.close.length;
    const packed = compact(daily);
    if (packed) return { length, ...packed, patterns, earnings };
    const { open, high, low, close, volume } = daily;
    return { length, drawn: { open, high, low, close, volume }, patterns, earnings };
  }

  static of(daily: DailyPath): HeldPath {
    return new HeldPath(HeldPath.partsOf(daily));
  }

  /** A held path from its parts (as {@link partsOf} made them, e.g. in a worker thread). */
  static from(parts: HeldPathParts): HeldPath {
    return new HeldPath(parts);
  }

  open(t: number): number {
    return this.drawn ? this.drawn.open(t) : this.cents![t * 4]! / 100;
  }

  high(t: number): number {
    return this.drawn ? this.drawn.high(t) : this.cents![t * 4 + 1]! / 100;
  }

  low(t: number): number {
    return this.drawn ? this.drawn.low(t) : this.cents![t * 4 + 2]! / 100;
  }

  close(t: number): number {
    return this.drawn ? this.drawn.close(t) : this.cents![t * 4 + 3]! / 100;
  }

  volume(t: number): number {
    return this.drawn ? this.drawn.volume(t) : this.volumes![t]!;
  }

  /**
   * The first `n` sessions as OHLCV columns, their times from `ts` (a view of
   * it without `extra`), with room for `extra` more bars after them (columns
   * of `n + extra` values, the rest zero); the price and volume columns are
   * new arrays.
   */
  ohlcv(ts: Float64Array, n: number, extra = 0): Ohlcv {
    const size = n + extra;
    const column = () => new Float64Array(size);
    const bars: Ohlcv = { ts: extra === 0 ? ts.subarray(0, n) : column(), open: column(), high: column(), low: column(), close: column(), volume: column() };
    if (extra > 0) bars.ts.set(ts.subarray(0, n));
    if (this.drawn) {
      for (const name of [...PRICE_COLUMNS, 'volume'] as const) bars[name].set(this.drawn.path[name].subarray(0, n));
      return bars;
    }
    const cents = this.cents!;
    const { open, high, low, close, volume } = bars;
    for (let t = 0; t < n; t++) {
      open[t] = cents[t * 4]! / 100;
      high[t] = cents[t * 4 + 1]! / 100;
      low[t] = cents[t * 4 + 2]! / 100;
      close[t] = cents[t * 4 + 3]! / 100;
    }
    volume.set(this.volumes!.subarray(0, n));
    return bars;
  }
}
