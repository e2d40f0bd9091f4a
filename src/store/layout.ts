/**
 * @module store/layout
 * The memory layout of the shared bar store. Worker threads map the same
 * `SharedArrayBuffer`s and read bars in place, so this layout is the contract
 * between the writer (the main thread) and every reader.
 *
 * ## Segments
 *
 * A segment is one `SharedArrayBuffer` holding `slots` series of one timeframe,
 * each with room for `capacity` bars. When every slot of a timeframe's last
 * segment is taken, the store allocates a new segment; it never moves or frees
 * a slot, so a view a reader holds stays a view of that series.
 *
 * ```
 * byte 0                      slot headers: 4 × Int32 per slot (16 bytes)
 *   header[4s + 0]  seq       sequence counter of slot s (a seqlock): even = stable,
 *                             odd = a write is in progress
 *   header[4s + 1]  length    bars stored, 0..capacity
 *   header[4s + 2]  capacity  the segment's capacity, so a slot describes itself
 *   header[4s + 3]  revision  bumped by a write that changes a stored bar other than
 *                             the last one (a revised history, a window that slid);
 *                             a write that only appends bars, or revises the last
 *                             (still forming) bar, keeps it
 * byte D = page(16·slots)      columns: 6 columns of `stride` Float64 values per slot, slot-major:
 *   column c of slot s starts at byte D + (6s + c) · stride · 8
 *   c = 0 ts (epoch ms, UTC), 1 open, 2 high, 3 low, 4 close, 5 volume
 *   the first `length` values are the bars, oldest first
 * ```
 *
 * `page(x)` rounds up to a multiple of 4,096 bytes. A segment's `stride` is
 * one of two (`SegmentHandle.stride`):
 *
 * - padded (the default), `columnStride(capacity)`: the capacity rounded up to
 *   a multiple of 512 values (4,096 bytes), so every column starts on a page of
 *   its own (and is 8-byte aligned, as `Float64Array` requires). A buffer's
 *   pages are resident only once written, and such a series fills only the
 *   start of each column (about 2,000 daily bars of room for 12,600): a column
 *   that began mid-page would keep one page more resident for a few bytes.
 *   Aligned, the store of a cold start (531 symbols, three timeframes, bars and
 *   scan state) keeps about 62 MB less resident (issue 13).
 * - packed, `capacity` itself: for a timeframe whose series never grow past a
 *   known length (`BarStoreOptions.longestSeries`, from the provider), the
 *   capacity is that length and columns follow each other end to end, so a
 *   page holds the end of one column and the start of the next instead of
 *   being left part empty (the synthetic market's 252 4h bars fill half a
 *   page a column: about 21 MB less resident for 4h and 1h, issue 13).
 *
 * ## Writing and reading (single writer, many readers)
 *
 * Only the thread that owns the `BarStore` writes. A write is a seqlock (Linux's
 * `seqlock_t`; H.-J. Boehm, "Can Seqlocks Get Along with Programming Language
 * Memory Models?", MSPC 2012) built from ECMAScript `Atomics`, whose
 * sequentially consistent operations order the plain Float64 stores around
 * them (ECMA-262, clause "Memory Model"):
 *
 * 1. `Atomics.add(seq, 1)`: seq becomes odd;
 * 2. copy the columns;
 * 3. `Atomics.store(length, n)`;
 * 4. `Atomics.add(seq, 1)`: seq becomes even again, written last.
 *
 * A reader loads seq (retrying while odd), loads length, and loads seq again;
 * equal values mean the length belongs to a finished write, whose bars it now
 * sees. Views are zero-copy, so they show later writes too: a reader that needs
 * one consistent picture for a whole computation compares the version it read
 * with the slot's seq afterwards and retries if they differ (`read()` does this).
 *
 * ## Scan state (a second buffer per segment)
 *
 * Beside each segment the writer allocates a buffer of the same `slots` for
 * what a scan derives from the bars (store/scan-state): the incremental
 * indicator state of kernels/indicators/scan-set and its values. Worker
 * threads write it, one at a time per slot (a lock word in it), and the
 * bars' `revision` tells them whether it still belongs to the stored bars.
 *
 * ```
 * byte 0                      slot headers: 4 × Int32 per slot
 *   header[4s + 0]  lock      0 free, else the holder's lease (seconds clock, see scan-state)
 *   header[4s + 1]  revision  the bars' revision the state was built on
 *   header[4s + 2]  committed bars the state has consumed (never the last stored bar)
 *   header[4s + 3]  provisional  the bars' seq when the last bar's values were computed
 * byte 16·slots               states: SCAN_STATE_WORDS Float64 per slot
 * byte V = page(16·slots + 8·SCAN_STATE_WORDS·slots)
 *                             values: STATEFUL_SCAN_INDICATORS.length columns of `stride`
 *                             Float64 per slot, slot-major, one column per indicator
 * ```
 *
 * The rolling extremes of the set (52-week and Donchian highs and lows) are
 * not kept: each is some bar's high or low, and a reader computes them from
 * the bars in O(bars) when it reads (store/scan-state), which costs less than
 * the six columns of history a series would keep resident (layout 4, issue 13).
 *
 * ## Directory
 *
 * Which slot holds which (symbol, timeframe) is a list of {@link SeriesEntry},
 * written once per directory generation as UTF-8 JSON into its own
 * `SharedArrayBuffer` (`StoreHandle.directory`), so a handle crosses to a
 * worker without copying the list (a task's message stays a few hundred
 * bytes however many series the store holds) and a worker decodes it only
 * when it attaches. A one-Int32 control buffer counts directory changes; a
 * reader whose handle is older than that count is `stale` (it still reads
 * every series it knows, correctly) and attaches a fresh handle to see new series.
 */
import type { Timeframe } from '../domain/signal';
import { STATEFUL_SCAN_INDICATORS, SCAN_STATE_WORDS } from '../kernels/indicators/scan-set';

/** Bumped when the byte layout changes; readers refuse other versions. */
export const LAYOUT_VERSION = 5;
export const HEADER_INTS = 4;
export const HEADER_BYTES = HEADER_INTS * 4;
export const SEQ = 0;
export const LENGTH = 1;
export const CAPACITY = 2;
export const REVISION = 3;
export const COLUMNS = ['ts', 'open', 'high', 'low', 'close', 'volume'] as const;
export type Column = (typeof COLUMNS)[number];

/** A segment as handed to readers. */
export interface SegmentHandle {
  buffer: SharedArrayBuffer;
  /** The segment's scan-state buffer (layout above, store/scan-state). */
  scanState: SharedArrayBuffer;
  timeframe: Timeframe;
  capacity: number;
  /** Values from the start of a column to the start of the next: `columnStride(capacity)` (padded) or `capacity` (packed); see "Segments". */
  stride: number;
  slots: number;
}

/** Where one series lives. */
export interface SeriesEntry {
  symbol: string;
  timeframe: Timeframe;
  segment: number;
  slot: number;
  source: string;
}

/**
 * Everything a worker needs to read the store: structured-cloneable (plain
 * objects and `SharedArrayBuffer`s, which `postMessage` shares rather than copies).
 */
export interface StoreHandle {
  layoutVersion: number;
  /** Which store this is (random, per `BarStore`): two stores in one process have generations that look alike. */
  storeId: string;
  /** Int32[0]: directory generation. */
  control: SharedArrayBuffer;
  /** The generation this handle's `series` list describes. */
  generation: number;
  segments: SegmentHandle[];
  /** The generation's `SeriesEntry[]` as UTF-8 JSON (see "Directory"): read it with {@link readDirectory}. */
  directory: SharedArrayBuffer;
}

/** Writes a directory for {@link StoreHandle.directory}. */
export function writeDirectory(series: readonly SeriesEntry[]): SharedArrayBuffer {
  const bytes = new TextEncoder().encode(JSON.stringify(series));
  const shared = new SharedArrayBuffer(bytes.length);
  new Uint8Array(shared).set(bytes);
  return shared;
}

/** The series a directory written by {@link writeDirectory} lists. */
export function readDirectory(directory: SharedArrayBuffer): SeriesEntry[] {
  // TextDecoder does not read shared memory: one copy of the bytes first.
  return JSON.parse(new TextDecoder().decode(new Uint8Array(directory).slice())) as SeriesEntry[];
}

/** Bytes of a page: columns start on one (see "Segments"). */
export const PAGE_BYTES = 4096;
const PAGE_VALUES = PAGE_BYTES / Float64Array.BYTES_PER_ELEMENT;

/** Values from the start of a column to the start of the next: `capacity` rounded up to a page's worth. */
export function columnStride(capacity: number): number {
  return Math.ceil(capacity / PAGE_VALUES) * PAGE_VALUES;
}

const toPage = (bytes: number) => Math.ceil(bytes / PAGE_BYTES) * PAGE_BYTES;

/** Byte offset of the first column of a segment (after its slot headers). */
function columnsStart(slots: number): number {
  return toPage(slots * HEADER_BYTES);
}

/** Byte offset of the first indicator column of a scan-state buffer (after its headers and packed states). */
function valuesStart(slots: number): number {
  return toPage(slots * HEADER_BYTES + slots * SCAN_STATE_WORDS * 8);
}

/** Bytes of a segment of `slots` series whose columns are `stride` values apart. */
export function segmentBytes(slots: number, stride: number): number {
  return columnsStart(slots) + slots * COLUMNS.length * stride * Float64Array.BYTES_PER_ELEMENT;
}

/** Bytes of a segment's scan-state buffer. */
export function scanStateBytes(slots: number, stride: number): number {
  return valuesStart(slots) + slots * STATEFUL_SCAN_INDICATORS.length * stride * 8;
}

/** Byte offset of slot `slot`'s packed state in a scan-state buffer. */
export function scanStateOffset(slots: number, slot: number): number {
  return slots * HEADER_BYTES + slot * SCAN_STATE_WORDS * 8;
}

/**
 * Byte offset of slot `slot`'s indicator values: `STATEFUL_SCAN_INDICATORS.length`
 * columns, each `stride` values apart.
 */
export function scanValuesOffset(slots: number, stride: number, slot: number): number {
  return valuesStart(slots) + slot * STATEFUL_SCAN_INDICATORS.length * stride * 8;
}

/** Byte offset of column `column` (index into {@link COLUMNS}) of slot `slot`. */
export function columnOffset(slots: number, stride: number, slot: number, column: number): number {
  return columnsStart(slots) + (slot * COLUMNS.length + column) * stride * Float64Array.BYTES_PER_ELEMENT;
}

/** The map key of a series. */
export function seriesKey(symbol: string, timeframe: Timeframe): string {
  return `${symbol}\u0000${timeframe}`;
}
