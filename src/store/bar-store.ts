/**
 * @module store/bar-store
 * The writable shared bar store, owned by the main thread. `put` copies a
 * series into its slot (the newest `capacity` bars when it is longer); `get`
 * answers zero-copy views; `handle()` describes the memory for workers, which
 * read it through `attachStore(handle)` without copying. Layout and the
 * write/read protocol: `layout.ts`.
 *
 * @example
 * const store = new BarStore({ capacityPerSeries: { daily: 2_520 } });
 * store.put(await provider.bars({ symbol: 'AAPL', timeframe: 'daily' }));
 * pool.run({ store: store.handle(), symbol: 'AAPL' }); // the worker calls attachStore()
 */
import type { BarSeries } from '../providers/types';
import type { Timeframe } from '../domain/signal';
import {
  CAPACITY,
  columnOffset,
  columnStride,
  COLUMNS,
  HEADER_INTS,
  LAYOUT_VERSION,
  LENGTH,
  REVISION,
  SEQ,
  scanStateBytes,
  segmentBytes,
  seriesKey,
  type SeriesEntry,
  type StoreHandle,
  writeDirectory,
} from './layout';
import { BarStoreReader, mapSegment, type MappedSegment } from './reader';

/**
 * Bars kept per series when not configured: about 50 years of sessions for
 * daily (252 a year); for intraday, about 4 years of regular-hours 1h bars
 * (7 a session) and 8 years of 4h bars (2 a session).
 */
export const DEFAULT_CAPACITY: Readonly<Record<Timeframe, number>> = { daily: 12_600, '4h': 4_096, '1h': 7_168 };
/** Series per segment when not configured. */
export const DEFAULT_SLOTS_PER_SEGMENT = 64;

export interface BarStoreOptions {
  /** Bars kept per series of each timeframe; a longer series keeps its newest bars. */
  capacityPerSeries?: Partial<Record<Timeframe, number>>;
  /** Series per shared segment; a full segment is followed by a new one. */
  slotsPerSegment?: number;
  /**
   * The most bars a series of a timeframe ever has, where the provider bounds
   * it (`MarketDataProvider.longestSeries`): that timeframe's capacity becomes
   * this length (instead of `capacityPerSeries`) and its columns are packed
   * end to end (layout.ts, "Segments"), so its slots hold no part-empty pages.
   */
  longestSeries?: Partial<Record<Timeframe, number>>;
}

function positiveInteger(value: number, what: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${what} must be a positive integer, got ${value}`);
  return value;
}

export class BarStore extends BarStoreReader {
  private readonly capacity: Record<Timeframe, number>;
  private readonly slotsPerSegment: number;
  /** Timeframes whose columns are packed (`longestSeries`). */
  private readonly packed = new Set<Timeframe>();
  /** Index of the newest segment per timeframe, and its next free slot. */
  private readonly open = new Map<Timeframe, { segment: number; next: number }>();
  /** The last handle given out, while the directory's generation is unchanged (writing the directory is O(series)). */
  private handed: StoreHandle | undefined;

  constructor(options: BarStoreOptions = {}) {
    const control = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    super({ layoutVersion: LAYOUT_VERSION, storeId: crypto.randomUUID(), control, generation: 0, segments: [], directory: writeDirectory([]) });
    this.capacity = { ...DEFAULT_CAPACITY };
    for (const [timeframe, capacity] of Object.entries(options.capacityPerSeries ?? {})) {
      this.capacity[timeframe as Timeframe] = positiveInteger(capacity, `capacityPerSeries.${timeframe}`);
    }
    for (const [timeframe, longest] of Object.entries(options.longestSeries ?? {})) {
      this.capacity[timeframe as Timeframe] = positiveInteger(longest, `longestSeries.${timeframe}`);
      this.packed.add(timeframe as Timeframe);
    }
    this.slotsPerSegment = positiveInteger(options.slotsPerSegment ?? DEFAULT_SLOTS_PER_SEGMENT, 'slotsPerSegment');
  }

  /** A reader never sees its own store as stale. */
  override get stale(): boolean {
    return false;
  }

  /** Bars a series of `timeframe` keeps. */
  capacityOf(timeframe: Timeframe): number {
    return this.capacity[timeframe];
  }

  /**
   * Copies `series` into its slot, replacing what the slot held; a series
   * longer than the capacity keeps its newest bars. Views handed out earlier
   * see the new bars (their `version` no longer matches). The slot's
   * `revision` moves unless the write only appends bars or revises the last
   * stored one (layout.ts), so state derived from the older bars knows
   * whether it still holds.
   *
   * @throws {RangeError} when the columns differ in length
   */
  put(series: BarSeries): void {
    const n = series.ts.length;
    for (const column of COLUMNS) {
      if (series[column].length !== n) {
        throw new RangeError(`bar store: ${series.symbol} ${series.timeframe} ${column} has ${series[column].length} values, ts has ${n}`);
      }
    }
    const entry = this.slotFor(series);
    const segment = this.segments[entry.segment]!;
    const { headers, capacity } = segment;
    const base = entry.slot * HEADER_INTS;
    const kept = Math.min(n, capacity);
    const from = n - kept;
    const appendOnly = this.extendsStored(segment, entry.slot, series, from, kept);

    Atomics.add(headers, base + SEQ, 1); // odd: write in progress
    if (!appendOnly) Atomics.add(headers, base + REVISION, 1);
    COLUMNS.forEach((column, c) => {
      const target = new Float64Array(segment.buffer, columnOffset(segment.slots, segment.stride, entry.slot, c), capacity);
      target.set(series[column].subarray(from));
    });
    Atomics.store(headers, base + LENGTH, kept);
    Atomics.add(headers, base + SEQ, 1); // even: stable, written last
  }

  /**
   * Writes one bar at the end of a stored series in O(1): the last bar
   * revised in place when `bar.ts` is its time, else appended when the slot
   * has room. A live feed's forming bar moves every minute; copying the whole
   * series for it would cost thousands of bars a write. Neither write moves
   * the slot's revision (layout.ts). Returns false, writing nothing, when the
   * series is not stored, the slot is full, or `bar.ts` is before the last
   * bar's time (the caller writes the whole series with `put` then).
   */
  putLast(symbol: string, timeframe: Timeframe, bar: Readonly<Record<(typeof COLUMNS)[number], number>>): boolean {
    const entry = this.entries.get(seriesKey(symbol, timeframe));
    if (!entry) return false;
    const segment = this.segments[entry.segment]!;
    const base = entry.slot * HEADER_INTS;
    const stored = Atomics.load(segment.headers, base + LENGTH);
    const column = (c: number) => new Float64Array(segment.buffer, columnOffset(segment.slots, segment.stride, entry.slot, c), segment.capacity);
    const lastTs = stored > 0 ? column(0)[stored - 1]! : -Infinity;
    const at = bar.ts === lastTs ? stored - 1 : bar.ts > lastTs && stored < segment.capacity ? stored : -1;
    if (at < 0) return false;
    Atomics.add(segment.headers, base + SEQ, 1); // odd: write in progress
    COLUMNS.forEach((name, c) => {
      column(c)[at] = bar[name];
    });
    if (at === stored) Atomics.store(segment.headers, base + LENGTH, stored + 1);
    Atomics.add(segment.headers, base + SEQ, 1); // even: stable
    return true;
  }

  /**
   * Whether writing `series[from .. from + kept)` keeps every stored bar but
   * the last: the same bars (bit for bit) at the same positions, at least as
   * many of them. O(stored bars); only the writer calls it.
   */
  private extendsStored(segment: MappedSegment, slot: number, series: BarSeries, from: number, kept: number): boolean {
    const stored = Atomics.load(segment.headers, slot * HEADER_INTS + LENGTH);
    if (stored === 0) return false;
    const keep = stored - 1;
    if (kept < keep) return false;
    // Bit for bit, as two 32-bit words a value (BigUint64 compares allocate a BigInt per read: ~100× slower).
    for (let c = 0; c < COLUMNS.length; c++) {
      const old = new Int32Array(segment.buffer, columnOffset(segment.slots, segment.stride, slot, c), keep * 2);
      const incoming = series[COLUMNS[c]!];
      const fresh = new Int32Array(incoming.buffer, incoming.byteOffset + from * 8, keep * 2);
      for (let i = 0; i < keep * 2; i++) if (old[i] !== fresh[i]) return false;
    }
    return true;
  }

  /** A structured-cloneable description for `attachStore()` in a worker; take a new one after adding series. */
  handle(): StoreHandle {
    if (this.handed?.generation !== this.generation) {
      this.handed = {
        layoutVersion: LAYOUT_VERSION,
        storeId: this.storeId,
        control: this.control.buffer as SharedArrayBuffer,
        generation: this.generation,
        segments: this.segments.map(({ buffer, scanState, timeframe, capacity, stride, slots }) => ({ buffer, scanState, timeframe, capacity, stride, slots })),
        directory: writeDirectory([...this.entries.values()]),
      };
    }
    return this.handed;
  }

  /** The slot of the series, assigning one (and a new segment when full) the first time. */
  private slotFor(series: BarSeries): SeriesEntry {
    const key = seriesKey(series.symbol, series.timeframe);
    const existing = this.entries.get(key);
    if (existing) {
      if (existing.source !== series.source) {
        existing.source = series.source;
        this.bumpGeneration();
      }
      return existing;
    }
    const { timeframe } = series;
    let open = this.open.get(timeframe);
    if (!open || open.next === this.segments[open.segment]!.slots) {
      const capacity = this.capacity[timeframe];
      if (capacity === undefined) throw new RangeError(`bar store: no capacity for timeframe ${timeframe}`);
      const slots = this.slotsPerSegment;
      const stride = this.packed.has(timeframe) ? capacity : columnStride(capacity);
      const segment = mapSegment({
        buffer: new SharedArrayBuffer(segmentBytes(slots, stride)),
        scanState: new SharedArrayBuffer(scanStateBytes(slots, stride)),
        timeframe,
        capacity,
        stride,
        slots,
      });
      for (let slot = 0; slot < slots; slot++) segment.headers[slot * HEADER_INTS + CAPACITY] = capacity;
      this.segments.push(segment);
      open = { segment: this.segments.length - 1, next: 0 };
      this.open.set(timeframe, open);
    }
    const entry: SeriesEntry = { symbol: series.symbol, timeframe, segment: open.segment, slot: open.next++, source: series.source };
    this.entries.set(key, entry);
    this.bumpGeneration();
    return entry;
  }

  private bumpGeneration(): void {
    this.generation = Atomics.add(this.control, 0, 1) + 1;
  }
}
