/**
 * @module jobs/replay/run
 * A replay written to the replay ledger, resumable. The same parameters over
 * the same data source make the same run (a digest of both is its key): a run
 * that was interrupted carries on from the books stored with it (every
 * `BOOKS_EVERY_MS`), recomputing the sessions after them and skipping the
 * entries it had written since (a replay is deterministic: the same sessions
 * give the same entries in the same order); a finished one is returned as it
 * is. Every record is marked `mode: "replay"` and names the replay (id, data
 * source, range, timeframe, universe, benchmark); the run's first record
 * holds its full parameters and its universe's survivorship statement.
 *
 * It runs in the background without holding the server (issue 27): the
 * sessions are computed in the pool's background lane, and the records are
 * written `sliceRecords` at a time, each slice its own transaction, with the
 * event loop free between slices; stopped (`signal`), it returns after the
 * slice in progress — within tens of milliseconds — resumable.
 *
 * @example
 * const run = await runReplay(deps, { timeframe: 'daily', from: '2024-01-02', to: '2024-12-31', universe: { kind: 'sp500' }, benchmark: 'SPY' }, { origin: 'cli' });
 * run.status; // => 'done'
 */
import { ReplayConflict, type ReplayRun, type ReplayRunsRepository } from '../../db/repositories/replays';
import type { ReplayParams } from '../../domain/replay';
import { newId } from '../../ids';
import { yieldToEventLoop } from '../../db/client';
import { SLICE_MS } from '../../../workers/slice';
import { canonicalJson } from '../../ledger/canonical';
import type { Logger } from '../../log';
import type { ReplayTag } from '../../../workers/replay-entries';
import { prepareReplay, replayChunks, type PreparedReplay, type ReplayDeps } from './engine';

export interface ReplayJobDeps extends ReplayDeps {
  replays: ReplayRunsRepository;
  log: Logger;
}

export interface ReplayProgress {
  runId: string;
  sessionsDone: number;
  sessionsTotal: number;
  /** The session the run computes from: 0 for a new run, a resumed one's stored books. */
  resumedAt: number;
  /** Date of the last session done. */
  through: string;
  signals: number;
  records: number;
  elapsedMs: number;
}

export interface ReplayRunOptions {
  /** Why it runs (stored with it): `cli`, `boot`, `api`, `test`. */
  origin: string;
  /** Sessions per chunk (one transaction each); default 21. */
  chunkSessions?: number;
  onProgress?: (progress: ReplayProgress) => void;
  /** Stops after the slice in progress is committed; the run stays resumable. */
  signal?: AbortSignal;
  /** Ledger entries of the first transaction (default 100); then as many as take SLICE_MS (SliceSize). */
  sliceRecords?: number;
  /** How often the books are stored (what a resume recomputes from); default 30 s. */
  booksEveryMs?: number;
  /** Start a new run even when one with the same key exists. */
  fresh?: boolean;
}

/** How often a running replay stores its books (what a resume recomputes from). */
const BOOKS_EVERY_MS = 30_000;
/** Books stored per statement (a symbol's book is a few kilobytes). */
const BOOKS_PER_STATEMENT = 50;

/**
 * How many entries the next slice writes: as many as take `SLICE_MS` of the
 * server's thread on this machine and database (the embedded one writes in
 * that thread), from what the last slices took — fewer on a busy or slow
 * machine, more on a quiet one — between `min` and 10 times the start.
 */
export class SliceSize {
  size: number;

  constructor(
    private readonly start: number,
    private readonly min = 10,
  ) {
    this.size = start;
  }

  /** A slice of `entries` took `ms`. */
  took(entries: number, ms: number): void {
    if (entries < this.size || ms <= 0) return; // a chunk's short last slice says little
    const fits = (entries * SLICE_MS) / ms;
    // Halfway towards what fits: one slow slice (a collection, a checkpoint) does not swing it.
    this.size = Math.round(Math.min(this.start * 10, Math.max(this.min, (this.size + fits) / 2)));
  }
}

/** What names a replay in every one of its records. */
function tagOf(runId: string, prepared: PreparedReplay): ReplayTag {
  const { params, source } = prepared;
  return { id: runId, source, timeframe: params.timeframe, from: params.from, to: params.to, universe: params.universe.kind, benchmark: params.benchmark };
}

/** The digest that makes the same request find the same run. */
export function replayKey(params: ReplayParams, source: string): string {
  return new Bun.CryptoHasher('sha256').update(canonicalJson({ params, source })).digest('hex');
}

/**
 * Runs (or resumes, or returns) the replay of `params` over the configured
 * data source, writing it to the replay ledger chunk by chunk.
 * @throws what preparing the replay throws (no session in range, unknown symbols); a failure mid-way marks the run failed, resumable.
 */
export async function runReplay(deps: ReplayJobDeps, params: ReplayParams, options: ReplayRunOptions): Promise<ReplayRun> {
  const { replays, log } = deps;
  const source = deps.marketData.provider.name;
  const key = replayKey(params, source);
  const existing = options.fresh ? undefined : await replays.byKey(key);
  if (existing?.status === 'done') return existing;
  const prepared = await prepareReplay(deps, params, options.signal);
  const total = prepared.sessionTs.length;
  let run: ReplayRun;
  let startAt = 0;
  let skip = 0;
  let books = {};
  if (existing && existing.sessionsTotal === total) {
    run = existing;
    startAt = existing.booksThrough;
    skip = existing.entriesSinceBooks;
    books = await replays.books(existing.id);
    await replays.resume(existing.id);
    log.info('replay resumed', { runId: run.id, sessionsDone: existing.sessionsDone, from: startAt, skipping: skip, sessionsTotal: total });
  } else {
    if (existing) await replays.finish(existing.id, 'failed', `superseded: the data now holds ${total} sessions in range, the run was planned over ${existing.sessionsTotal}`);
    const id = newId('rpl');
    run = await replays.start(
      { id, key, params, source, origin: options.origin, universe: prepared.universe, sessionsTotal: total },
      { kind: 'replay', signalId: id, replayId: id, data: { mode: 'replay', replay: tagOf(id, prepared), params, universe: prepared.universe, sessions: total, firstSession: prepared.dates[0]!, lastSession: prepared.dates.at(-1)! } },
    );
    log.info('replay started', { runId: id, from: params.from, to: params.to, timeframe: params.timeframe, sessions: total, symbols: prepared.symbols.length });
  }
  const started = Date.now();
  const { signal } = options;
  const slice = new SliceSize(options.sliceRecords ?? 100);
  let signals = run.signals;
  let records = run.records;
  let sinceBooks = skip;
  let booksAt = Date.now();
  try {
    // The records come as their ledger entries, made in the workers (workers/replay-entries).
    for await (const chunk of replayChunks(deps, prepared, { startAt, books, chunkSessions: options.chunkSessions, signal, entries: tagOf(run.id, prepared) })) {
      const list = chunk.entries!;
      // After a restart, the entries written since the stored books are computed again and skipped.
      const from = Math.min(skip, list.length);
      skip -= from;
      for (let k = from; k < list.length; ) {
        const began = performance.now();
        const entries = list.slice(k, k + slice.size, run.id);
        k += entries.length;
        const surfaced = entries.filter((e) => e.kind === 'signal').length;
        sinceBooks += entries.length;
        records += await replays.commitSlice(run.id, entries, { records, entriesSinceBooks: sinceBooks, signals: surfaced });
        signals += surfaced;
        slice.took(entries.length, performance.now() - began);
        if (signal?.aborted) return (await replays.get(run.id))!;
        await yieldToEventLoop();
      }
      await replays.progress(run.id, chunk.to, records);
      await replays.ledger.checkpoint();
      if (Date.now() - booksAt >= (options.booksEveryMs ?? BOOKS_EVERY_MS) && chunk.to < total) {
        await replays.storeBooks(run.id, chunk.to, chunk.books, { records, perStatement: BOOKS_PER_STATEMENT, between: yieldToEventLoop });
        sinceBooks = 0;
        booksAt = Date.now();
      }
      if (chunk.tally.unresolvable > 0) log.warn('replay: outcomes unresolvable', { runId: run.id, count: chunk.tally.unresolvable, through: prepared.dates[chunk.to - 1] });
      options.onProgress?.({ runId: run.id, sessionsDone: chunk.to, sessionsTotal: total, resumedAt: startAt, through: prepared.dates[chunk.to - 1]!, signals, records, elapsedMs: Date.now() - started });
      if (signal?.aborted) return (await replays.get(run.id))!;
    }
  } catch (error) {
    // Stopped while a slice of sessions was being computed: resumable, not failed.
    if (signal?.aborted) return (await replays.get(run.id))!;
    // Another instance carries the run on (ReplayConflict): it is not this one's to mark failed.
    if (!(error instanceof ReplayConflict)) await replays.finish(run.id, 'failed', String(error));
    throw error;
  }
  await replays.finish(run.id, 'done');
  log.info('replay done', { runId: run.id, sessions: total, signals, records, ms: Date.now() - started });
  return (await replays.get(run.id))!;
}
