/**
 * @module store/reader
 * Read access to the shared bar store: zero-copy `BarSeries` views over the
 * segments described by a {@link StoreHandle}. A worker gets one with
 * `attachStore(handle)`; the owning `BarStore` reads through the same code.
 *
 * @example
 * // in a worker
 * const store = attachStore(handle);
 * const sum = store.read('AAPL', 'daily', (bars) => bars.close.reduce((a, b) => a + b, 0));
 */
import type { BarSeries } from '../providers/types';
import type { Timeframe } from '../domain/signal';
import {
  columnOffset,
  HEADER_INTS,
  LAYOUT_VERSION,
  LENGTH,
  readDirectory,
  REVISION,
  SEQ,
  seriesKey,
  type SegmentHandle,
  type SeriesEntry,
  type StoreHandle,
} from './layout';

/** A stored series: views over shared memory, plus the slot's seq when the views were taken. */
export type StoredSeries = BarSeries & { readonly version: number };

/** A segment with its header words mapped. */
export interface MappedSegment extends SegmentHandle {
  headers: Int32Array;
}

export function mapSegment(segment: SegmentHandle): MappedSegment {
  return { ...segment, headers: new Int32Array(segment.buffer, 0, segment.slots * HEADER_INTS) };
}

/** Spins before a reader gives up on a slot whose seq stays odd (a writer that never finished). */
const MAX_SPINS = 10_000_000;

export class BarStoreReader {
  protected readonly segments: MappedSegment[];
  protected readonly entries = new Map<string, SeriesEntry>();
  protected readonly control: Int32Array;
  protected generation: number;
  /** The store's id (`StoreHandle.storeId`). */
  readonly storeId: string;

  constructor(handle: StoreHandle) {
    if (handle.layoutVersion !== LAYOUT_VERSION) {
      throw new Error(`bar store layout ${handle.layoutVersion} is not the supported layout ${LAYOUT_VERSION}`);
    }
    this.control = new Int32Array(handle.control);
    this.generation = handle.generation;
    this.storeId = handle.storeId;
    this.segments = handle.segments.map(mapSegment);
    for (const entry of readDirectory(handle.directory)) this.entries.set(seriesKey(entry.symbol, entry.timeframe), entry);
  }

  /** True when the writer has added series since this reader's handle was taken. */
  get stale(): boolean {
    return Atomics.load(this.control, 0) !== this.generation;
  }

  has(symbol: string, timeframe?: Timeframe): boolean {
    if (timeframe) return this.hasSeries(seriesKey(symbol, timeframe));
    for (const entry of this.entries.values()) if (entry.symbol === symbol) return true;
    return false;
  }

  /**
   * Whether the series of `key` (`seriesKey(symbol, timeframe)`) is held: for
   * a caller that keeps the key (a hot route's held answer, asked on every
   * request), so no key is built and hashed per call (issue 27).
   */
  hasSeries(key: string): boolean {
    return this.entries.has(key);
  }

  /** The distinct symbols held, in the order they were first stored. */
  symbols(): string[] {
    return [...new Set([...this.entries.values()].map((e) => e.symbol))];
  }

  /** The slot's revision (layout.ts: moves when stored bars other than the last change); `undefined` for a series not held. */
  revision(symbol: string, timeframe: Timeframe): number | undefined {
    const entry = this.entries.get(seriesKey(symbol, timeframe));
    if (!entry) return undefined;
    return Atomics.load(this.segments[entry.segment]!.headers, entry.slot * HEADER_INTS + REVISION);
  }

  /** The segment and slot of a series (store/scan-state reads the slot's scan state through it); `undefined` when not held. */
  slotOf(symbol: string, timeframe: Timeframe): { segment: MappedSegment; slot: number } | undefined {
    const entry = this.entries.get(seriesKey(symbol, timeframe));
    return entry && { segment: this.segments[entry.segment]!, slot: entry.slot };
  }

  /** The slot's current seq (even when stable); `undefined` for a series not held. */
  version(symbol: string, timeframe: Timeframe): number | undefined {
    const entry = this.entries.get(seriesKey(symbol, timeframe));
    if (!entry) return undefined;
    return Atomics.load(this.segments[entry.segment]!.headers, entry.slot * HEADER_INTS + SEQ);
  }

  /**
   * The series as views over shared memory (no copy), sized by the length of
   * the last finished write; `undefined` when the series is not held.
   */
  get(symbol: string, timeframe: Timeframe): StoredSeries | undefined {
    const entry = this.entries.get(seriesKey(symbol, timeframe));
    if (!entry) return undefined;
    const segment = this.segments[entry.segment]!;
    const base = entry.slot * HEADER_INTS;
    const { headers } = segment;
    for (let spins = 0; spins < MAX_SPINS; spins++) {
      const seq = Atomics.load(headers, base + SEQ);
      if ((seq & 1) !== 0) continue; // a write is in progress
      const length = Atomics.load(headers, base + LENGTH);
      if (Atomics.load(headers, base + SEQ) !== seq) continue;
      const view = (column: number) =>
        new Float64Array(segment.buffer, columnOffset(segment.slots, segment.stride, entry.slot, column), length);
      return {
        symbol,
        timeframe,
        ts: view(0),
        open: view(1),
        high: view(2),
        low: view(3),
        close: view(4),
        volume: view(5),
        source: entry.source,
        version: seq,
      };
    }
    throw new Error(`bar store: ${symbol} ${timeframe} stayed mid-write for ${MAX_SPINS} reads`);
  }

  /**
   * Runs `compute` over the series and returns its result only if no write
   * happened meanwhile; retries up to `attempts` times. `undefined` when the
   * series is not held.
   *
   * @throws when every attempt overlapped a write
   */
  read<T>(symbol: string, timeframe: Timeframe, compute: (series: StoredSeries) => T, attempts = 5): T | undefined {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const series = this.get(symbol, timeframe);
      if (!series) return undefined;
      const result = compute(series);
      if (this.version(symbol, timeframe) === series.version) return result;
    }
    throw new Error(`bar store: ${symbol} ${timeframe} changed during ${attempts} reads in a row`);
  }
}

/** A read-only view of the store a `BarStore.handle()` describes (in a worker or anywhere else). */
export function attachStore(handle: StoreHandle): BarStoreReader {
  return new BarStoreReader(handle);
}
