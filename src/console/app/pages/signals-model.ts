/**
 * @module console/app/pages/signals-model
 * The signals list as data: the ranked list of one timeframe read through the
 * API's cursors (`/api/breakouts?limit=50` first: one table page, drawn as
 * soon as it arrives; then each page's `nextCursor` with `limit=200` until
 * `hasMore` is false), the filters and the sort the person chose, and the live
 * changes the stream brings. `/api/breakouts` filters by symbol only, so band,
 * pattern, direction, state and the symbol search are applied here, over the
 * whole list — which is read only once a view needs it (`needsWholeList`):
 * the first view, the top 50 by rank, needs one page, and the rest of the
 * list (about 0.75 MB of JSON for 350 signals, each page one long task to
 * parse and draw) was the bulk of the page's main-thread work at load
 * (bench/console, issue 33).
 */
import { api, query } from '../api';
import { distanceToTrigger } from '../format';
import { signalsFirstPage } from '../routes';
import type { BreakoutsPage, Signal, StateChange } from '../types';

/** The API's largest page (spec: limit clamped to [1, 200]): the pages after the first. */
export const PAGE_LIMIT = 200;
/** Rows the table shows at once. */
export const ROWS_PER_PAGE = 50;

export interface Filters {
  search: string;
  band: string;
  pattern: string;
  direction: string;
  state: string;
}

export type SortKey = 'rank' | 'symbol' | 'score' | 'confidence' | 'distance' | 'state';

export interface Sort {
  key: SortKey;
  descending: boolean;
}

/** Resolves when the browser is idle (at most `ms` later): the pages after the first are read behind the first render, not in its way. */
const idle = (ms: number) =>
  new Promise<void>((resolve) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(() => resolve(), { timeout: ms }) : setTimeout(resolve, 50)));

/** Reads the first page of the ranked list (one table page). */
export function readFirstPage(timeframe: string, signal?: AbortSignal): Promise<BreakoutsPage> {
  // The same URL as the page's preload link (plugins/console), so the browser uses what it preloaded.
  return api<BreakoutsPage>(signalsFirstPage(timeframe), { signal });
}

/** Reads the rest of the ranked list from `cursor` page by page, behind what the browser is doing; `onPage` gets each page's signals. */
export async function readRest(timeframe: string, cursor: string, onPage: (signals: Signal[], done: boolean) => void, signal?: AbortSignal): Promise<void> {
  let next: string | null = cursor;
  while (next !== null) {
    await idle(1000);
    const page: BreakoutsPage = await api<BreakoutsPage>(`/api/breakouts${query({ timeframe, limit: PAGE_LIMIT, cursor: next })}`, { signal });
    next = page.pagination.hasMore ? page.pagination.nextCursor : null;
    onPage(page.items, next === null);
  }
}

/** Whether a view needs the whole list: any filter, any order but the API's rank, or a table page past the first. */
export function needsWholeList(filters: Filters, sort: Sort, page: number): boolean {
  return Object.values(filters).some((value) => value !== '') || sort.key !== 'rank' || sort.descending || page > 0;
}

export function matches(signal: Signal, filters: Filters): boolean {
  const search = filters.search.trim().toUpperCase();
  return (
    (!search || signal.symbol.includes(search)) &&
    (!filters.band || signal.scoreBand === filters.band) &&
    (!filters.pattern || signal.patternType === filters.pattern) &&
    (!filters.direction || signal.direction === filters.direction) &&
    (!filters.state || signal.breakoutState === filters.state)
  );
}

const BY: Record<Exclude<SortKey, 'rank'>, (a: Signal, b: Signal) => number> = {
  symbol: (a, b) => a.symbol.localeCompare(b.symbol),
  score: (a, b) => a.finalScore - b.finalScore,
  confidence: (a, b) => a.confidence - b.confidence,
  distance: (a, b) => a.distancePct - b.distancePct,
  state: (a, b) => a.breakoutState.localeCompare(b.breakoutState),
};

/** The rows to show: the list filtered and sorted (`rank` keeps the API's order; descending reverses it). */
export function view(signals: readonly Signal[], filters: Filters, sort: Sort): Signal[] {
  const kept = signals.filter((s) => matches(s, filters));
  if (sort.key === 'rank') return sort.descending ? kept.reverse() : kept;
  const compare = BY[sort.key];
  return kept.sort((a, b) => (sort.descending ? compare(b, a) : compare(a, b)) || b.finalScore - a.finalScore);
}

/** The list with a new signal: in place of the one with its id, else where its score ranks it. */
export function withNew(signals: readonly Signal[], signal: Signal): Signal[] {
  const rest = signals.filter((s) => s.id !== signal.id);
  const at = rest.findIndex((s) => s.finalScore < signal.finalScore);
  return at < 0 ? [...rest, signal] : [...rest.slice(0, at), signal, ...rest.slice(at)];
}

/** The list after a state change: the signal's state, its price and distance to the trigger as the event tells them. */
export function withStateChange(signals: readonly Signal[], change: StateChange): Signal[] {
  return signals.map((s) =>
    s.id === change.signalId
      ? { ...s, breakoutState: change.to as Signal['breakoutState'], price: change.price, distancePct: Number(distanceToTrigger(change.price, s.triggerPrice, s.direction).toFixed(2)) }
      : s,
  );
}
