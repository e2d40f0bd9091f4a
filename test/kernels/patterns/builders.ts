/**
 * Test helpers for the pattern detectors: builders of hand-made daily bars
 * whose every price is chosen in the test (so expected pivots, targets and
 * stops can be worked out by hand), a no-look-ahead check, and a loader for
 * real daily history (the committed excerpts in test/fixtures, or the full
 * files in shared/data in the real-data run; the checks run on it are in real-data.ts).
 */
import { expect } from 'bun:test';
import { computeIndicators } from '../../../src/kernels/indicators';
import type { Ohlcv } from '../../../src/kernels/ohlcv';
import type { PatternDetector, PatternMatch } from '../../../src/kernels/patterns/types';
import { createCsvProvider } from '../../../src/providers/csv';

const DAY = 86_400_000;

interface Row {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface SegmentOptions {
  /** Distance of the high above and the low below the bar's body. Default 0.2. */
  pad?: number;
  /** Volume of every bar in the segment. Default 1,000,000. */
  volume?: number;
}

/** Daily bars from 2020-01-01 (one bar a calendar day), built segment by segment. */
export class BarBuilder {
  private readonly rows: Row[] = [];

  /** Index of the last bar added. */
  get last(): number {
    return this.rows.length - 1;
  }

  get lastClose(): number {
    return this.rows.at(-1)?.close ?? NaN;
  }

  /** One bar, exactly as given. */
  bar(open: number, high: number, low: number, close: number, volume = 1_000_000): this {
    this.rows.push({ open, high, low, close, volume });
    return this;
  }

  /** Quiet history: `n` bars whose closes alternate `price ± wiggle`, opening at the previous close. */
  quiet(n: number, price: number, wiggle = 0.3, options: SegmentOptions = {}): this {
    return this.closes(Array.from({ length: n }, (_, i) => price + (i % 2 === 0 ? wiggle : -wiggle)), options);
  }

  /** One bar per close: open = the previous close, high/low = the body ± `pad`. */
  closes(closes: number[], { pad = 0.2, volume = 1_000_000 }: SegmentOptions = {}): this {
    for (const close of closes) {
      const open = Number.isNaN(this.lastClose) ? close : this.lastClose;
      this.bar(open, Math.max(open, close) + pad, Math.min(open, close) - pad, close, volume);
    }
    return this;
  }

  /** `n` closes stepping evenly from the last close to `to`. */
  ramp(n: number, to: number, options: SegmentOptions = {}): this {
    const from = this.lastClose;
    return this.closes(Array.from({ length: n }, (_, i) => from + ((to - from) * (i + 1)) / n), options);
  }

  build(): Ohlcv {
    const column = (key: keyof Row) => Float64Array.from(this.rows, (r) => r[key]);
    return {
      ts: Float64Array.from(this.rows, (_, i) => Date.UTC(2020, 0, 1) + i * DAY),
      open: column('open'),
      high: column('high'),
      low: column('low'),
      close: column('close'),
      volume: column('volume'),
    };
  }
}

/**
 * Daily bars from closes alone: open = the previous close, high and low 0.5%
 * beyond the body, volume 1M × `volumeMultiple(i)` (default 1), one bar a
 * calendar day from 2020-01-01.
 */
export function barsFromCloses(closes: number[], volumeMultiple: (i: number) => number = () => 1): Ohlcv {
  const n = closes.length;
  const b = { ts: new Float64Array(n), open: new Float64Array(n), high: new Float64Array(n), low: new Float64Array(n), close: new Float64Array(n), volume: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    const c = closes[i]!, o = i > 0 ? closes[i - 1]! : c;
    b.ts[i] = Date.UTC(2020, 0, 1) + i * DAY;
    b.open[i] = o;
    b.close[i] = c;
    b.high[i] = Math.max(o, c) * 1.005;
    b.low[i] = Math.min(o, c) * 0.995;
    b.volume[i] = 1_000_000 * volumeMultiple(i);
  }
  return b;
}

/** Closes in straight legs: `straightLegs(60, [100, 110])` is 60, then 110 closes stepping evenly to 100. */
export function straightLegs(start: number, ...legs: [to: number, bars: number][]): number[] {
  const out = [start];
  for (const [to, bars] of legs) {
    const from = out.at(-1)!;
    for (let k = 1; k <= bars; k++) out.push(from + ((to - from) * k) / bars);
  }
  return out;
}

/**
 * The bars reflected about `about` (price p becomes about − p; highs and lows
 * swap): a bull pattern becomes the matching bear pattern with mirrored
 * numbers, and true ranges, ATR and volume stay the same.
 */
export function mirror(bars: Ohlcv, about: number): Ohlcv {
  const flip = (a: Float64Array) => a.map((p) => about - p);
  return { ts: bars.ts.slice(), open: flip(bars.open), high: flip(bars.low), low: flip(bars.high), close: flip(bars.close), volume: bars.volume.slice() };
}

/** Runs `detector` at `asOf` over `bars` with freshly computed indicators. */
export function detectAt(detector: PatternDetector, bars: Ohlcv, asOf: number): PatternMatch | null {
  return detector.detect({ bars, ind: computeIndicators(bars), asOf });
}

/** The first `n` bars as their own series. */
export function truncate(bars: Ohlcv, n: number): Ohlcv {
  return {
    ts: bars.ts.slice(0, n),
    open: bars.open.slice(0, n),
    high: bars.high.slice(0, n),
    low: bars.low.slice(0, n),
    close: bars.close.slice(0, n),
    volume: bars.volume.slice(0, n),
  };
}

/**
 * Bars up to `asOf` unchanged, then `extra` wild bars after it: a 30% gap up
 * then a collapse, on 10× volume. A detector that peeks past `asOf` sees them.
 */
export function withWildFuture(bars: Ohlcv, asOf: number, extra = 30): Ohlcv {
  const n = asOf + 1 + extra;
  const out = truncate(bars, asOf + 1);
  const grow = (a: Float64Array) => {
    const b = new Float64Array(n);
    b.set(a);
    return b;
  };
  const res = { ts: grow(out.ts), open: grow(out.open), high: grow(out.high), low: grow(out.low), close: grow(out.close), volume: grow(out.volume) };
  const base = bars.close[asOf]!;
  for (let i = asOf + 1; i < n; i++) {
    const k = i - asOf;
    const price = k <= extra / 2 ? base * (1.3 + 0.02 * k) : base * 0.5;
    res.ts[i] = bars.ts[asOf]! + k * DAY;
    res.open[i] = price;
    res.high[i] = price * 1.05;
    res.low[i] = price * 0.95;
    res.close[i] = price;
    res.volume[i] = bars.volume[asOf]! * 10;
  }
  return res;
}

/**
 * The detector's answer at `asOf` must not depend on any later bar: the same
 * with the series cut at `asOf`, and with wild bars appended after it.
 */
export function expectNoLookAhead(detector: PatternDetector, bars: Ohlcv, asOf: number): PatternMatch | null {
  const full = detectAt(detector, bars, asOf);
  expect(detectAt(detector, truncate(bars, asOf + 1), asOf)).toEqual(full);
  expect(detectAt(detector, withWildFuture(bars, asOf), asOf)).toEqual(full);
  return full;
}

/** Real daily history with its indicators and a date → bar index lookup. */
export interface History {
  symbol: string;
  bars: Ohlcv;
  ind: ReturnType<typeof computeIndicators>;
  /** Index of the bar dated `yyyy-mm-dd`; throws when there is none. */
  at(date: string): number;
  /** `yyyy-mm-dd` of bar `i`. */
  date(i: number): string;
}

const providers = new Map<string, ReturnType<typeof createCsvProvider>>();

/** Loads `symbol` from the csv files in `dir` (a fixture folder, or a shared/data folder in the real-data run). */
export async function history(dir: string, symbol: string): Promise<History> {
  let provider = providers.get(dir);
  if (!provider) providers.set(dir, (provider = createCsvProvider({ dir })));
  const bars = await provider.bars({ symbol, timeframe: 'daily' });
  const ind = computeIndicators(bars);
  const date = (i: number) => new Date(bars.ts[i]!).toISOString().slice(0, 10);
  return {
    symbol,
    bars,
    ind,
    date,
    at(day) {
      const i = bars.ts.indexOf(Date.parse(`${day}T00:00:00Z`));
      if (i < 0) throw new Error(`${symbol} has no bar dated ${day}`);
      return i;
    },
  };
}

/** Runs `detector` on real history at the bar dated `day`. */
export function detectOn(detector: PatternDetector, h: History, day: string): PatternMatch | null {
  return detector.detect({ bars: h.bars, ind: h.ind, asOf: h.at(day) });
}

// ── textbook patterns, every price chosen so the expected levels can be worked out by hand ──

/**
 * A bull flag: 60 quiet bars around 50, the pole's low 49.00 (bar 60), seven
 * bars up on 2M volume to the pole's top `poleTop` (bar 68), then a flag of
 * `flagBars` bars (pole top included, through bar 67 + flagBars) whose highs
 * (`poleTop − step·x`) and lows (`poleTop − 1.7 − step·x`) fall in parallel
 * on 0.8M volume.
 */
export function bullFlagBars({ poleTop = 60, flagBars = 7, step = 0.25 } = {}): BarBuilder {
  const b = new BarBuilder().quiet(60, 50).bar(49.7, 49.9, 49.0, 49.5);
  b.ramp(7, poleTop - 1.5, { volume: 2_000_000 }).bar(poleTop - 1.5, poleTop, poleTop - 1.7, poleTop - 0.5, 2_000_000);
  for (let x = 1; x < flagBars; x++) {
    const high = poleTop - step * x;
    const low = poleTop - 1.7 - step * x;
    b.bar(high - 0.4, high, low, low + 0.4, 800_000);
  }
  return b;
}

/**
 * An ascending triangle after 60 quiet bars around 45: closes peak at 49.8,
 * 49.7 and 49.8 (highs 50.0, 49.9, 50.0 at bars 64, 72, 78) and trough at
 * `troughs` (lows 0.2 under them at bars 68, 75, 81), then rise to 49.4 at
 * bar 84. Opens are the previous close, highs and lows the body ± 0.2.
 */
export function ascendingTriangleBars(troughs: [number, number, number] = [45.2, 46.9, 47.9]): BarBuilder {
  const [l1, l2, l3] = troughs;
  return new BarBuilder()
    .quiet(60, 45)
    .closes([46, 47, 48, 49, 49.8, 48.8, 47.5, 46.2, l1])
    .closes([46.5, 47.8, 49.0, 49.7, 48.7, 47.6, l2])
    .closes([47.8, 48.9, 49.8, 49.0, 48.3, l3])
    .closes([48.6, 49.0, 49.4]);
}

/**
 * A trading range: 60 quiet bars around 30, a three-bar jump to 48.2, then
 * closes cycling 49, 50.5, 51.8, 50.5, 49, 48.2 six times (bars 63–98) and
 * 49, 50.5, 51.5 (bars 99–101): highs top out at 52.0, lows bottom at 48.0.
 */
export function rangeBars(): BarBuilder {
  const b = new BarBuilder().quiet(60, 30).ramp(3, 48.2);
  for (let k = 0; k < 6; k++) b.closes([49, 50.5, 51.8, 50.5, 49, 48.2]);
  return b.closes([49, 50.5, 51.5]);
}
