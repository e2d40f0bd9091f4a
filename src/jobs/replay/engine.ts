/**
 * @module jobs/replay/engine
 * The point-in-time engine: the live pipeline (universe at the date, scan,
 * scoring with RS rank and market regime, lifecycle, alerts, outcome
 * resolution) run over a range of past sessions, in the worker pool over the
 * shared bar store (workers/replay).
 *
 * `prepareReplay` loads the bars (cache-through, into the shared store), takes
 * the sessions from the benchmark's bars, and computes every session's
 * cross-sectional inputs up front: RS ranks and breadth of the universe at
 * that date, and the market regime. `replayChunks` then walks the sessions in
 * chunks; each chunk is one task per batch of symbols, which advances every
 * symbol session by session (the scan reads the store's incremental
 * indicators through views that end at the session's bar) and hands back its
 * book for the next chunk. The records come back in the order a live run
 * appends them, session by session: the signals surfaced (by rank), the moves
 * of listed signals (by rank), the tracked moves, the outcomes (in surfacing
 * order).
 *
 * A symbol whose data ended more than one session of the benchmark's bars
 * before a session (`STALE_AFTER_BARS`, jobs/scan) is out of that session's
 * universe, as `runScan` leaves a stale series out: not scanned, ranked or
 * counted in breadth (its open signals are still tracked to their end).
 *
 * Every session equals a `runScan` as of that session over the same universe
 * (`test/jobs/replay.test.ts`), and nothing in it depends on a later bar (the
 * same test replays data cut at a date).
 *
 * It is background work (issue 27): every task runs in the pool's background
 * lane, a few symbols or sessions at a time and a scan task for at most
 * `SLICE_MS` (the rest of its symbols go in the next task), so the lane's
 * threads are never held long and a stop takes effect within a slice; the
 * chunk's records are put in ledger order a session at a time, with the event
 * loop free between sessions. A replay written to the ledger (`entries`) has
 * the workers hand back each record as its ledger entry's text, packed
 * (workers/replay-entries, jobs/replay/ordered): the server's thread never
 * holds a chunk as an object graph per record.
 */
import type { Books, ReplayParams, UniverseDescription } from '../../domain/replay';
import type { RegimeReading, Signal, Timeframe } from '../../domain/signal';
import type { FailureRule } from '../../kernels/lifecycle';
import type { MarketData } from '../../market-data';
import { yieldToEventLoop } from '../../db/client';
import { inTurn, type KernelPool, type RunOptions } from '../../pool';
import type { BarStore } from '../../store';
import type { BookRecord, SessionTally } from '../../../workers/replay-book';
import { deadline, SLICE_MS } from '../../../workers/slice';
import type { ReplayMatrices } from '../../../workers/replay';
import { indexAtOrBefore } from '../../../workers/store';
import { STALE_AFTER_BARS } from '../scan';
import { compareKeys, keyOf, phase, type ReplayTag } from '../../../workers/replay-entries';
import { orderEntries, type OrderedEntries } from './ordered';
import { replayUniverse } from './universe';
import { runsOf } from '../../runs-of';

export interface ReplayDeps {
  marketData: MarketData;
  barStore: BarStore;
  pool: KernelPool;
}

/** A replay ready to walk: its sessions, universe, matrices and per-session regime. */
export interface PreparedReplay {
  params: ReplayParams;
  source: string;
  timeframe: Timeframe;
  /** Session bar times and their dates (YYYY-MM-DD). */
  sessionTs: number[];
  dates: string[];
  /** Symbols in matrix column order. */
  symbols: string[];
  universe: UniverseDescription;
  matrices: ReplayMatrices;
  breadth: (number | null)[];
  regimes: (RegimeReading | null)[];
  /** Report dates per symbol, when the provider knows them. */
  earnings: Map<string, string[] | null>;
  /** Symbols in the universe per session. */
  universeSize: number[];
}

/** Every symbol's book as JSON, by symbol (workers/replay `ReplayScanResult.book`). */
export type BookTexts = Record<string, string>;

/** One chunk of sessions, its records in ledger order, and what it did. */
export interface ReplayChunk {
  /** Sessions [from, to). */
  from: number;
  to: number;
  records: BookRecord[];
  tally: SessionTally & { signals: number };
  /** With `listings`: each session's ranked signals over the whole universe (index k − from). */
  listings?: Signal[][];
  /** Every symbol's book after this chunk, as JSON (what a resumed replay starts the next chunk from). */
  books: BookTexts;
  /** With `entries`: the records as that replay's ledger entries, in ledger order (`records` is empty then). */
  entries?: OrderedEntries;
}

const dateOf = (ts: number) => new Date(ts).toISOString().slice(0, 10);
const shared = (bytes: number) => new SharedArrayBuffer(Math.max(8, bytes));

/** Symbols per task of the per-symbol passes, and sessions per task of the per-session ones: a slice each. */
const SYMBOLS_PER_TASK = 8;
const SESSIONS_PER_TASK = 25;

/** The background lane, stopped with `signal`. */
const background = (signal?: AbortSignal): RunOptions => ({ lane: 'background', signal });

/**
 * Loads what the replay reads and computes every session's cross-sectional
 * inputs (passes 1 and 2 of workers/replay).
 * @throws {RangeError} when the range holds no session of the benchmark, or a listed symbol is unknown.
 */
export async function prepareReplay(deps: ReplayDeps, params: ReplayParams, signal?: AbortSignal): Promise<PreparedReplay> {
  const { marketData, barStore, pool } = deps;
  const { timeframe, benchmark } = params;
  const universe = await replayUniverse(params.universe, marketData, params.from, params.to);
  const bench = await marketData.bars(benchmark, timeframe);
  const sessionTs: number[] = [];
  for (const ts of bench.ts) {
    const day = dateOf(ts);
    if (day >= params.from && day <= params.to) sessionTs.push(ts);
  }
  if (sessionTs.length === 0) throw new RangeError(`replay: ${benchmark} has no ${timeframe} bars from ${params.from} to ${params.to}`);
  const dates = sessionTs.map(dateOf);
  const loaded = await Promise.all(
    universe.symbols.map((symbol) =>
      marketData.bars(symbol, timeframe).then(
        (series) => ({ symbol, first: series.ts.length ? dateOf(series.ts[0]!) : null, ts: series.ts }),
        () => ({ symbol, first: null, ts: new Float64Array(0) }),
      ),
    ),
  );
  const firstBar = new Map(loaded.map((l) => [l.symbol, l.first]));
  const withBars = loaded.filter((l) => l.first !== null);
  const symbols = withBars.map((l) => l.symbol);
  const description = universe.describe(dates, (s) => firstBar.get(s) ?? null);

  const n = sessionTs.length;
  const s = symbols.length;
  const matrices: ReplayMatrices = {
    sessions: n,
    symbols: s,
    sessionTs: shared(n * 8),
    universe: shared(n * s),
    rsScore: shared(n * s * 8),
    above: shared(n * s),
    ranks: shared(n * s),
  };
  new Float64Array(matrices.sessionTs).set(sessionTs);
  const member = new Uint8Array(matrices.universe);
  const universeSize = new Array<number>(n).fill(0);
  const standOn = sessionTs.map((ts) => indexAtOrBefore(bench.ts, ts));
  const staleAfter = STALE_AFTER_BARS[timeframe];
  // Every symbol's membership at every session (the universe's ~500 symbols × the replay's sessions held the
  // server's thread 40–60 ms at once as a first start's boot replay began: issue 27), a turn of the loop each
  // time a slice's budget is spent.
  let over = deadline(SLICE_MS);
  for (const [c, { symbol, ts }] of withBars.entries()) {
    if (over()) {
      await yieldToEventLoop();
      over = deadline(SLICE_MS);
    }
    for (let k = 0; k < n; k++) {
      if (!universe.isMember(symbol, dates[k]!)) continue;
      const i = indexAtOrBefore(ts, sessionTs[k]!);
      if (i >= 0 && standOn[k]! - indexAtOrBefore(bench.ts, ts[i]!) > staleAfter) continue; // stale: its data ended before this session
      member[c * n + k] = 1;
      universeSize[k]!++;
    }
  }

  const handle = barStore.handle();
  const columns = symbols.map((symbol, column) => ({ symbol, column }));
  const lane = background(signal);
  const inFlight = pool.backgroundThreads * 2;
  await inTurn(runsOf(columns, SYMBOLS_PER_TASK), inFlight, (part) => pool.run('replayStats', { handle, timeframe, matrices, columns: part }, lane));
  const ranges = runsOf(
    Array.from({ length: n }, (_, k) => k),
    SESSIONS_PER_TASK,
  );
  const breadth = (await inTurn(ranges, inFlight, (r) => pool.run('replayRanks', { matrices, from: r[0]!, to: r.at(-1)! + 1 }, lane))).flat();
  const regimes = (
    await inTurn(ranges, inFlight, (r) => pool.run('replayRegimes', { handle, timeframe, benchmark, sessionTs: r.map((k) => sessionTs[k]!), breadth: r.map((k) => breadth[k]!) }, lane))
  ).flat();
  const provider = marketData.provider;
  const earnings = new Map(symbols.map((symbol) => [symbol, provider.earningsDates ? provider.earningsDates(symbol) : null]));
  return { params, source: provider.name, timeframe, sessionTs, dates, symbols, universe: description, matrices, breadth, regimes, earnings, universeSize };
}

export interface ChunkOptions {
  /** The first session to run (a resumed replay starts after its last finished chunk). */
  startAt?: number;
  /** Books from the chunks before `startAt`, by symbol. */
  books?: Books;
  /** Sessions per chunk; default 21 (about a month of daily sessions). */
  chunkSessions?: number;
  /** Return every session's ranked listing (tests, calibration). */
  listings?: boolean;
  /** The lifecycle's failure rule; default the record's (kernels/lifecycle `FAILURE_RULE`; bench/failure-rule tries others). */
  failure?: FailureRule;
  /** Stops the tasks in flight (a stopped walk rejects with an AbortError). */
  signal?: AbortSignal;
  /** The replay whose ledger entries the chunks carry (made in the workers: `ReplayChunk.entries`) instead of the records. */
  entries?: ReplayTag;
}

const byRank = (a: Signal, b: Signal) => b.finalScore - a.finalScore || a.id.localeCompare(b.id);

/** Orders one session's records as a live run would append them (stable: a signal's own events keep their order). */
function sessionOrder(records: BookRecord[]): BookRecord[] {
  return records
    .map((r, i) => ({ r, i, p: phase(r), k: keyOf(r) }))
    .sort((a, b) => compareKeys(a.p, a.k[0], a.k[1], a.i, b.p, b.k[0], b.k[1], b.i))
    .map((x) => x.r);
}

/** Orders a chunk's records as a live run would append them (see the module comment). */
export function ledgerOrder(records: BookRecord[]): BookRecord[] {
  return [...bySession(records).values()].flatMap(sessionOrder);
}

/** The records of each session, sessions in order, each in the order given. */
function bySession(records: BookRecord[]): Map<number, BookRecord[]> {
  const sessions = new Map<number, BookRecord[]>();
  for (const r of records) {
    let list = sessions.get(r.session);
    if (!list) sessions.set(r.session, (list = []));
    list.push(r);
  }
  return new Map([...sessions].sort(([a], [b]) => a - b));
}

/** `ledgerOrder`, a session at a time with the event loop free between sessions. */
async function ledgerOrderSliced(records: BookRecord[]): Promise<BookRecord[]> {
  const out: BookRecord[] = [];
  for (const list of bySession(records).values()) {
    for (const r of sessionOrder(list)) out.push(r);
    await yieldToEventLoop();
  }
  return out;
}

/**
 * Walks the prepared sessions in chunks (see the module comment), yielding
 * each chunk's records in ledger order. The next chunk is computed while the
 * caller handles the current one.
 */
export async function* replayChunks(deps: ReplayDeps, replay: PreparedReplay, options: ChunkOptions = {}): AsyncGenerator<ReplayChunk> {
  const { pool, barStore } = deps;
  const books: BookTexts = Object.fromEntries(Object.entries(options.books ?? {}).map(([symbol, book]) => [symbol, JSON.stringify(book)]));
  const size = options.chunkSessions ?? 21;
  const n = replay.sessionTs.length;
  const handle = barStore.handle();
  const lane = background(options.signal);
  const parts = runsOf(
    replay.symbols.map((symbol, column) => ({ symbol, column })),
    SYMBOLS_PER_TASK,
  );
  /** One part's symbols over sessions [from, to): a task each slice, the symbols a slice did not reach in the next. */
  const scanPart = async (part: { symbol: string; column: number }[], from: number, to: number) => {
    const out: Awaited<ReturnType<typeof pool.run<'replayScan'>>> = [];
    for (let rest = part; rest.length > 0; ) {
      const done = await pool.run(
        'replayScan',
        {
          handle,
          timeframe: replay.timeframe,
          source: replay.source,
          matrices: replay.matrices,
          from,
          to,
          regimes: replay.regimes.slice(from, to),
          symbols: rest.map(({ symbol, column }) => ({ symbol, column, earnings: replay.earnings.get(symbol) ?? null, book: books[symbol] ?? null })),
          listings: options.listings,
          budgetMs: SLICE_MS,
          ...(options.entries ? { entries: options.entries } : {}),
          ...(options.failure ? { failure: options.failure } : {}),
        },
        lane,
      );
      out.push(...done);
      rest = rest.slice(done.length);
    }
    return out;
  };
  const run = async (from: number): Promise<ReplayChunk> => {
    const to = Math.min(n, from + size);
    const results = (await inTurn(parts, pool.backgroundThreads * 2, (part) => scanPart(part, from, to))).flat();
    const tally = { scanned: 0, listed: 0, unresolvable: 0, signals: 0 };
    const records: BookRecord[] = [];
    for (const r of results) {
      books[r.symbol] = r.book;
      for (const record of r.records) records.push(record);
      tally.scanned += r.tally.scanned;
      tally.listed += r.tally.listed;
      tally.unresolvable += r.tally.unresolvable;
    }
    // A snapshot: the next chunk's results replace these books, never change them.
    const chunk: ReplayChunk = { from, to, records: await ledgerOrderSliced(records), tally, books: { ...books } };
    if (options.entries) chunk.entries = await orderEntries(results.flatMap((r) => (r.entries ? [r.entries] : [])), from, to);
    tally.signals = chunk.entries ? chunk.entries.signals() : records.filter((r) => r.kind === 'signal').length;
    if (options.listings) {
      chunk.listings = Array.from({ length: to - from }, (_, j) => results.flatMap((r) => r.listings?.[j] ?? []).sort(byRank));
    }
    return chunk;
  };
  // Each chunk needs the books the one before left: chunks run one after the
  // other, but the next one is under way while the caller handles this one.
  const start = (from: number) => {
    const pending = run(from);
    pending.catch(() => undefined); // a caller that stops early leaves it unawaited; one that goes on sees the error
    return pending;
  };
  let next = (options.startAt ?? 0) < n ? start(options.startAt ?? 0) : undefined;
  while (next) {
    const chunk = await next;
    next = chunk.to < n ? start(chunk.to) : undefined;
    yield chunk;
  }
}
