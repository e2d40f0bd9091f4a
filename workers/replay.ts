/**
 * Worker entry points of the point-in-time replay (src/jobs/replay). A replay
 * runs the live scan pipeline over a range of past sessions in three passes,
 * each split over the pool:
 *
 * 1. `replayStats`: every symbol's cross-sectional inputs at every session (RS
 *    score, above its 50-bar average), into shared matrices;
 * 2. `replayRanks` and `replayRegimes`: per session, the RS ranks and breadth
 *    of the universe at that session, and the market regime from the
 *    benchmark;
 * 3. `replayScan`: per symbol and chunk of sessions, the scan and what a
 *    persisted run does with it (workers/replay-book), reading the shared
 *    incremental indicators (store/scan-state) through views that end at
 *    each session's bar.
 *
 * Each session sees exactly what `runScan` as of that session sees (the same
 * worker functions over the same state: `test/jobs/replay.test.ts`).
 */
import type { RegimeReading, Signal, Timeframe } from '../src/domain/signal';
import type { FailureRule } from '../src/kernels/lifecycle';
import { FitMemo } from '../src/kernels/patterns/types';
import { extremeArrays } from '../src/kernels/indicators';
import { marketRegime } from '../src/kernels/regime';
import { percentileRanks } from '../src/kernels/rs-rank';
import { withScanInputs, type StoreHandle } from '../src/store';
import { packEntries, type PackedEntries, type ReplayTag } from './replay-entries';
import { emptyBook, prune, runSession, type BookContext, type BookRecord, type SessionTally, type SymbolBook } from './replay-book';
import { standingOn, symbolStats } from './scan';
import { deadline } from './slice';
import { indexAtOrBefore, store } from './store';

/**
 * The replay's shared matrices, symbol-major (`[column × sessions + k]`): which
 * symbol is in the universe at which session, its RS score and whether it
 * closed above its 50-bar average there, and its RS rank in that session's
 * universe.
 */
export interface ReplayMatrices {
  sessions: number;
  symbols: number;
  /** Float64 × sessions: the bar time of each session. */
  sessionTs: SharedArrayBuffer;
  /** Uint8: 1 when in the universe. */
  universe: SharedArrayBuffer;
  /** Float64: RS score, NaN without a year of bars. */
  rsScore: SharedArrayBuffer;
  /** Int8: 1 above the 50-bar average, 0 below, −1 unknown (under 50 bars, or no bar). */
  above: SharedArrayBuffer;
  /** Int8: RS rank 1–99 in the session's universe, 0 when none. */
  ranks: SharedArrayBuffer;
}

export interface ReplayStatsInput {
  handle: StoreHandle;
  timeframe: Timeframe;
  matrices: ReplayMatrices;
  /** The symbols of this batch and their matrix columns. */
  columns: { symbol: string; column: number }[];
}

/** Pass 1: fills `rsScore` and `above` for the batch's symbols at every session (the `prepare` task's figures). */
export function replayStats({ handle, timeframe, matrices: m, columns }: ReplayStatsInput): number {
  const s = store(handle);
  const sessionTs = new Float64Array(m.sessionTs);
  const rs = new Float64Array(m.rsScore);
  const above = new Int8Array(m.above);
  let filled = 0;
  for (const { symbol, column } of columns) {
    const series = s.get(symbol, timeframe);
    let i = -1;
    for (let k = 0; k < m.sessions; k++) {
      const at = column * m.sessions + k;
      if (series) while (i + 1 < series.ts.length && series.ts[i + 1]! <= sessionTs[k]!) i++;
      const stats = symbolStats(symbol, series, series ? i : -1);
      rs[at] = stats.rsScore;
      above[at] = stats.aboveSma50 === null ? -1 : stats.aboveSma50 ? 1 : 0;
      filled++;
    }
  }
  return filled;
}

export interface ReplayRanksInput {
  matrices: ReplayMatrices;
  /** Sessions [from, to). */
  from: number;
  to: number;
}

/** Pass 2a: RS ranks (into `ranks`) and breadth of the universe at each session of [from, to) (`runScan`'s figures). */
export function replayRanks({ matrices: m, from, to }: ReplayRanksInput): (number | null)[] {
  const universe = new Uint8Array(m.universe);
  const rs = new Float64Array(m.rsScore);
  const above = new Int8Array(m.above);
  const ranks = new Int8Array(m.ranks);
  const breadth: (number | null)[] = [];
  const members: number[] = [];
  const scores: number[] = [];
  for (let k = from; k < to; k++) {
    members.length = 0;
    scores.length = 0;
    let known = 0;
    let up = 0;
    for (let c = 0; c < m.symbols; c++) {
      const at = c * m.sessions + k;
      if (universe[at] !== 1) continue;
      members.push(at);
      scores.push(rs[at]!);
      if (above[at]! >= 0) {
        known++;
        up += above[at]!;
      }
    }
    const r = percentileRanks(scores);
    members.forEach((at, j) => (ranks[at] = Number.isFinite(r[j]!) ? r[j]! : 0));
    breadth.push(known ? up / known : null);
  }
  return breadth;
}

export interface ReplayRegimesInput {
  handle: StoreHandle;
  timeframe: Timeframe;
  benchmark: string;
  sessionTs: number[];
  breadth: (number | null)[];
}

/** Pass 2b: the market regime at each session (the `regime` task's reading), null without 200 bars of the benchmark. */
export function replayRegimes({ handle, timeframe, benchmark, sessionTs, breadth }: ReplayRegimesInput): (RegimeReading | null)[] {
  return (
    withScanInputs(store(handle), benchmark, timeframe, (series, ind) =>
      sessionTs.map((ts, k) => {
        const asOf = indexAtOrBefore(series.ts, ts);
        if (asOf < 200) return null;
        const view = standingOn(series, ind, asOf);
        return marketRegime(view.bars, view.ind, asOf, breadth[k]!);
      }),
    ) ?? sessionTs.map(() => null)
  );
}

export interface ReplayScanInput {
  handle: StoreHandle;
  timeframe: Timeframe;
  /** Data source named in every record. */
  source: string;
  matrices: ReplayMatrices;
  /** Sessions [from, to) of this chunk, and the regime at each. */
  from: number;
  to: number;
  regimes: (RegimeReading | null)[];
  /** The batch: each symbol's column, report dates (when known) and book from the chunk before (its JSON: `ReplayScanResult.book`). */
  symbols: { symbol: string; column: number; earnings: string[] | null; book: string | null }[];
  /** Return every session's ranked listing of the batch (tests, calibration); default false. */
  listings?: boolean;
  /** The lifecycle's failure rule; default the record's (bench/failure-rule tries others). */
  failure?: FailureRule;
  /** A slice (workers/slice): stop starting symbols once this many ms are spent; the result covers the first symbols only. */
  budgetMs?: number;
  /** The replay whose ledger entries to hand back, made and packed here (workers/replay-entries), instead of the records. */
  entries?: ReplayTag;
}

export interface ReplayScanResult {
  symbol: string;
  /**
   * The symbol's book after the chunk, as JSON: the server's thread holds it
   * as one string until the next chunk's task (issue 27: not an object graph
   * of every signal followed, which its collector would mark), and stores it
   * as it is; a resumed replay starts from the same JSON.
   */
  book: string;
  /** The records in the order made (none with `entries`: they come back as `entries`). */
  records: BookRecord[];
  /** With the input's `entries`: the records as that replay's ledger entries, packed. */
  entries?: PackedEntries;
  tally: SessionTally;
  /** With `listings`: the symbol's ranked signals per session of the chunk (index k − from). */
  listings?: Signal[][];
}

/**
 * Pass 3: one chunk of sessions for a batch of symbols (workers/replay-book
 * runs each session); with `budgetMs`, for the first symbols of the batch
 * that fit in it (at least one): the result is theirs, in order.
 */
export function replayScan(input: ReplayScanInput): ReplayScanResult[] {
  const { handle, timeframe, source, matrices: m, from, to, regimes } = input;
  const s = store(handle);
  const sessionTs = new Float64Array(m.sessionTs);
  const universe = new Uint8Array(m.universe);
  const ranks = new Int8Array(m.ranks);
  const over = deadline(input.budgetMs);
  const results: ReplayScanResult[] = [];
  for (const { symbol, column, earnings, book: given } of input.symbols) {
    if (results.length > 0 && over()) break;
    const book: SymbolBook = given === null ? emptyBook() : (JSON.parse(given) as SymbolBook);
    const records: BookRecord[] = [];
    const tally: SessionTally = { scanned: 0, listed: 0, unresolvable: 0 };
    const listings: Signal[][] | undefined = input.listings ? [] : undefined;
    const ctx: BookContext = { symbol, timeframe, source, earnings, memo: new FitMemo(), plans: new WeakMap(), ...(input.failure ? { failure: input.failure } : {}) };
    withScanInputs(s, symbol, timeframe, (bars, stored) => {
      // Over more than a session, the rolling extremes as arrays (O(bars) once, rather than O(window) a read).
      const ind = to - from > 1 ? extremeArrays(bars, stored) : stored;
      for (let k = from; k < to; k++) {
        const at = column * m.sessions + k;
        const rank = ranks[at]!;
        const listed = runSession(book, ctx, bars, ind, { session: k, ts: sessionTs[k]!, inUniverse: universe[at] === 1, rsRank: rank === 0 ? null : rank, regime: regimes[k - from] ?? null }, records, tally);
        listings?.push(listed);
      }
      const last = indexAtOrBefore(bars.ts, sessionTs[to - 1]!);
      if (last >= 0) prune(book, sessionTs[to - 1]!, bars, last);
    });
    const made = input.entries ? { records: [], entries: packEntries(records, input.entries) } : { records };
    results.push({ symbol, book: JSON.stringify(book), ...made, tally, ...(listings ? { listings } : {}) });
  }
  collectGarbage();
  return results;
}

/**
 * A full collection of this thread's heap after replay work, at most once a
 * second (tasks are slices of tens of milliseconds now: one a task would be
 * most of the work). The store's SharedArrayBuffers (well over a GB reserved,
 * mostly untouched) count as extra memory of every heap that holds them, and
 * JSC scales the point of its next collection by the heap's size with it, so
 * a worker let the garbage of dozens of chunks (records, signals, fits:
 * ~20,000 records a chunk) pile up first: the boot replay peaked at 1.97 GB
 * RSS and left 1.22 GB, against 1.37 GB and 0.81 GB with a collection after
 * each task (issue 13; bench/boot). What the next task needs lives in the
 * books it is handed, so little survives a collection.
 */
let collectedAt = -Infinity;
const COLLECT_EVERY_MS = 1_000;
function collectGarbage(): void {
  const now = performance.now();
  if (now - collectedAt < COLLECT_EVERY_MS) return;
  Bun.gc(true);
  collectedAt = performance.now();
}
