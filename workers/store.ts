/**
 * The shared bar store as every worker task sees it: attached once per store
 * and generation (zero copy), and the one binary search for "the bar at or
 * before". The store's id is part of the key: two stores in one process (a
 * replay of a cut copy of the data beside the full one, in tests) count their
 * generations alike.
 */
import { attachStore, type BarStoreReader, type StoreHandle } from '../src/store';

let reader: BarStoreReader | undefined;
let readerGeneration = -1;

export function store(handle: StoreHandle): BarStoreReader {
  if (!reader || reader.storeId !== handle.storeId || readerGeneration !== handle.generation || reader.stale) {
    reader = attachStore(handle);
    readerGeneration = handle.generation;
  }
  return reader;
}

/** Index of the last bar with ts ≤ asOfTs, or −1 (kernels/ohlcv). */
export { indexAtOrBefore } from '../src/kernels/ohlcv';
