/**
 * @module store/scan-state
 * The scan's indicators kept beside the bars in shared memory, so a scan on a
 * new bar costs work proportional to the symbols, not to their history. Each
 * series' slot holds the incremental state of kernels/indicators/scan-set and
 * the indicator values it produced (layout.ts, "Scan state"). Whichever
 * worker thread reads a series next advances it over the bars appended since:
 *
 * 1. take the slot's lock (a lease: a holder that died, e.g. a worker killed
 *    by a task timeout, is taken over after {@link LEASE_SECONDS});
 * 2. when the bars' revision still is the one the state was built on, extend
 *    the state over the new bars but the last; else rebuild it from bar 0;
 * 3. compute the last stored bar on a copy of the state: a bar still forming
 *    (today's partial session) is revised by the next write, so it is never
 *    committed (nor recomputed while no write happened);
 * 4. hand the bars and the indicators (views, as long as the bars) to the
 *    caller, then check no write overlapped the read (the bars' seq); if one
 *    did, the state is dropped and the caller's work is redone over a
 *    consistent copy.
 *
 * The values equal `computeIndicators` over the stored bars bit for bit (the
 * streaming kernels' property, `test/kernels/indicators/streaming.test.ts`),
 * so nothing a scan reports depends on how the state got there
 * (`test/store/scan-state.test.ts`). A lock not obtained within
 * {@link LOCK_WAIT_MS} falls back to computing the indicators privately.
 *
 * @example
 * // in a worker
 * const found = withScanInputs(store(handle), 'AAPL', 'daily', (bars, ind) => scanWithIndicators(bars, ind, ctx));
 */
import type { Timeframe } from '../domain/signal';
import {
  STATEFUL_SCAN_INDICATORS,
  SCAN_STATE_WORDS,
  computeScanIndicators,
  extendStatefulScanIndicators,
  lazyExtremes,
  packScanState,
  scanIndicatorState,
  scanIndicatorViews,
  unpackScanState,
  type ScanIndicatorSet,
  type ScanIndicatorState,
} from '../kernels/indicators/scan-set';
import { HEADER_INTS, scanStateOffset, scanValuesOffset } from './layout';
import type { BarStoreReader, StoredSeries } from './reader';

/** Words of a slot's scan-state header. */
const LOCK = 0;
const BUILT_ON = 1;
const COMMITTED = 2;
/** The bars' seq when the last bar's values were computed (they hold until the next write). */
const PROVISIONAL = 3;

/** A lease older than this is a holder that died; it is taken over. */
export const LEASE_SECONDS = 30;
/** Longest wait for a slot's lock before computing privately. */
export const LOCK_WAIT_MS = 5_000;

/** A lease stamp: the wall clock in seconds, never 0 (0 is "free"). */
const leaseNow = () => ((Date.now() / 1000) & 0x3fffffff) || 1;

function acquire(headers: Int32Array, at: number): number {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const mine = leaseNow();
    const held = Atomics.compareExchange(headers, at, 0, mine);
    if (held === 0) return mine;
    if (mine - held > LEASE_SECONDS && Atomics.compareExchange(headers, at, held, mine) === held) return mine;
    const left = deadline - Date.now();
    if (left <= 0) return 0;
    Atomics.wait(headers, at, held, Math.min(left, 50));
  }
}

function release(headers: Int32Array, at: number, lease: number): void {
  Atomics.compareExchange(headers, at, lease, 0);
  Atomics.notify(headers, at);
}

/**
 * Runs `use` with a series' bars and its scan indicators (views as long as the
 * bars), advancing the shared state first (see the module comment). Holds the
 * slot while `use` runs: keep it to one symbol's work. `undefined` when the
 * store does not hold the series.
 */
export function withScanInputs<T>(store: BarStoreReader, symbol: string, timeframe: Timeframe, use: (bars: StoredSeries, ind: ScanIndicatorSet) => T): T | undefined {
  const where = store.slotOf(symbol, timeframe);
  if (!where) return undefined;
  const { segment, slot } = where;
  const headers = new Int32Array(segment.scanState, 0, segment.slots * HEADER_INTS);
  const base = slot * HEADER_INTS;
  const privately = () => store.read(symbol, timeframe, (bars) => use(bars, computeScanIndicators(bars)));
  const lease = acquire(headers, base + LOCK);
  if (lease === 0) return privately();
  try {
    const bars = store.get(symbol, timeframe)!;
    const revision = store.revision(symbol, timeframe)!;
    const n = bars.ts.length;
    const words = new Float64Array(segment.scanState, scanStateOffset(segment.slots, slot), SCAN_STATE_WORDS);
    const { stride } = segment;
    const values = new Float64Array(segment.scanState, scanValuesOffset(segment.slots, stride, slot), STATEFUL_SCAN_INDICATORS.length * stride);
    const committed = Atomics.load(headers, base + COMMITTED);
    const reusable = committed > 0 && committed <= n - 1 && Atomics.load(headers, base + BUILT_ON) === revision;
    let state: ScanIndicatorState;
    if (reusable) {
      state = unpackScanState(words);
    } else {
      Atomics.store(headers, base + COMMITTED, 0);
      Atomics.store(headers, base + PROVISIONAL, -1);
      state = scanIndicatorState();
    }
    // One set of views, as long as the bars: the kernels write through them, the caller reads them.
    const stateful = scanIndicatorViews(values, stride, n, STATEFUL_SCAN_INDICATORS);
    if (n > 0 && (state.next < n - 1 || Atomics.load(headers, base + PROVISIONAL) !== bars.version)) {
      const committedBefore = state.next;
      extendStatefulScanIndicators(bars, stateful, state, n - 1);
      if (state.next !== committedBefore) {
        packScanState(state, words);
        Atomics.store(headers, base + BUILT_ON, revision);
        Atomics.store(headers, base + COMMITTED, state.next);
      }
      Atomics.store(headers, base + PROVISIONAL, bars.version);
    }
    // The rolling extremes are not kept (layout.ts): computed from the bars at the bars the caller reads.
    const result = use(bars, { ...stateful, ...lazyExtremes(bars) });
    if (store.version(symbol, timeframe) === bars.version) return result;
    // A write overlapped: what was read may mix old and new bars.
    Atomics.store(headers, base + COMMITTED, 0);
    Atomics.store(headers, base + PROVISIONAL, -1);
    return privately();
  } finally {
    release(headers, base + LOCK, lease);
  }
}
