/**
 * @module store
 * The shared-memory bar store: the main thread `put`s series, worker threads
 * `attachStore(handle)` and read the same memory without copying. The byte
 * layout and the seqlock protocol are documented in `layout.ts`; beside the
 * bars the scan's indicators are kept incrementally (`scan-state.ts`).
 *
 * @example
 * const store = new BarStore();
 * store.put(series);
 * worker.postMessage({ store: store.handle() });
 * // worker: attachStore(data.store).get('AAPL', 'daily')!.close
 */
export { BarStore, DEFAULT_CAPACITY, DEFAULT_SLOTS_PER_SEGMENT, type BarStoreOptions } from './bar-store';
export { attachStore, BarStoreReader, type StoredSeries } from './reader';
export { withScanInputs, LEASE_SECONDS, LOCK_WAIT_MS } from './scan-state';
export { LAYOUT_VERSION, seriesKey, type SegmentHandle, type SeriesEntry, type StoreHandle } from './layout';
