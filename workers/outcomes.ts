/**
 * Worker entry point of the outcome resolution job (src/jobs/outcomes.ts):
 * resolves ledger signals against the bars after their entry, read from the
 * shared bar store, with kernels/outcome.
 */
import { resolveOutcome, SCRATCH_STATES, type OutcomeResult } from '../src/kernels/outcome';
import type { OutcomeItem } from '../src/domain/signal';
import type { Ohlcv } from '../src/kernels/ohlcv';
import type { StoreHandle } from '../src/store';
import { indexAtOrBefore, store } from './store';

export type ResolvedItem =
  | { signalId: string; result: OutcomeResult & { exitTs: number; throughTs: number } }
  | { signalId: string; error: string };

export interface OutcomesInput {
  handle: StoreHandle;
  items: OutcomeItem[];
  /** Resolve as of the last bar at or before this time (epoch ms). */
  asOfTs: number;
}

/** Resolves one item against `bars` standing on bar `asOf` (only the bars after its entry, up to `asOf`, are read). */
export function resolveItem(item: OutcomeItem, bars: Ohlcv, asOf: number): ResolvedItem {
  const detectedIndex = indexAtOrBefore(bars.ts, item.entryTs);
  if (detectedIndex < 0) return { signalId: item.signalId, error: `no bar at or before the entry at ${new Date(item.entryTs).toISOString()}` };
  if (asOf < detectedIndex) return { signalId: item.signalId, error: 'the bars end before the entry' };
  const scratch = item.state !== undefined && SCRATCH_STATES.has(item.state) && item.stateTs !== undefined;
  const stateIndex = scratch ? Math.max(detectedIndex + 1, indexAtOrBefore(bars.ts, item.stateTs!)) : undefined;
  try {
    const result = resolveOutcome(
      {
        direction: item.direction,
        entry: item.entry,
        target1: item.target1,
        stopLoss: item.stopLoss,
        detectedIndex,
        ...(scratch && stateIndex! <= asOf ? { state: item.state, stateIndex } : {}),
      },
      bars,
      asOf,
    );
    return { signalId: item.signalId, result: { ...result, exitTs: bars.ts[result.exitIndex]!, throughTs: bars.ts[asOf]! } };
  } catch (error) {
    return { signalId: item.signalId, error: (error as Error).message };
  }
}

export function outcomes({ handle, items, asOfTs }: OutcomesInput): ResolvedItem[] {
  const s = store(handle);
  return items.map((item): ResolvedItem => {
    const bars = s.get(item.symbol, item.timeframe);
    if (!bars) return { signalId: item.signalId, error: `no ${item.timeframe} bars for ${item.symbol}` };
    return resolveItem(item, bars, indexAtOrBefore(bars.ts, asOfTs));
  });
}
