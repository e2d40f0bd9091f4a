/**
 * @module jobs/replay/run
 * A replay written to the replay ledger, resumable. The same parameters over
 * the same data source make the same run (a digest of both is its key): a run
 * that was interrupted carries on after its last committed chunk, from the
 * books stored with it; a finished one is returned as it is. Every record is
 * marked `mode: "replay"` and names the replay (id, data source, range,
 * timeframe, universe, benchmark); the run's first record holds its full
 * parameters and its universe's survivorship statement.
 *
 * @example
 * const run = await runReplay(deps, { timeframe: 'daily', from: '2024-01-02', to: '2024-12-31', universe: { kind: 'sp500' }, benchmark: 'SPY' }, { origin: 'cli' });
 * run.status; // => 'done'
 */
import type { LedgerEntry } from '../../db/repositories/ledger';
import { ReplayConflict, type ReplayRun, type ReplayRunsRepository } from '../../db/repositories/replays';
import { eventEntry, signalEntry } from '../../db/repositories/scan-entries';
import type { ReplayParams } from '../../domain/replay';
import { newId } from '../../ids';
import { canonicalJson } from '../../ledger/canonical';
import type { Logger } from '../../log';
import type { BookRecord } from '../../../workers/replay-book';
import { prepareReplay, replayChunks, type PreparedReplay, type ReplayDeps } from './engine';

export interface ReplayJobDeps extends ReplayDeps {
  replays: ReplayRunsRepository;
  log: Logger;
}

export interface ReplayProgress {
  runId: string;
  sessionsDone: number;
  sessionsTotal: number;
  /** The session the run resumed at (0 for a new run). */
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
  /** Stops after the chunk in progress is committed; the run stays resumable. */
  signal?: AbortSignal;
  /** Start a new run even when one with the same key exists. */
  fresh?: boolean;
}

/** What names a replay in every one of its records. */
function tagOf(runId: string, prepared: PreparedReplay) {
  const { params, source } = prepared;
  return { id: runId, source, timeframe: params.timeframe, from: params.from, to: params.to, universe: params.universe.kind, benchmark: params.benchmark };
}

/** A book record as a replay ledger entry (the live record's fields, marked as a replay's). */
export function replayEntry(r: BookRecord, runId: string, prepared: PreparedReplay): LedgerEntry {
  const marks = { mode: 'replay', replay: tagOf(runId, prepared) };
  if (r.kind === 'signal') {
    const s = r.signal;
    const base = signalEntry(s, runId, prepared.source, r.surfacedAt, r.regime, r.alert);
    return {
      ...base,
      replayId: runId,
      data: {
        ...base.data,
        ...marks,
        components: s.components,
        geometry: s.geometry,
        rsRank: s.rsRank,
        avgDollarVolume: s.avgDollarVolume,
        distancePct: s.distancePct,
        breakoutVolumeRatio: s.breakoutVolumeRatio,
      },
    };
  }
  if (r.kind === 'event') {
    const base = eventEntry(r.signalId, runId, r.from, r.to, r.price, r.at);
    return { ...base, replayId: runId, data: { ...base.data, ...marks } };
  }
  return {
    kind: 'outcome',
    signalId: r.signalId,
    patternType: r.patternType,
    scoreBand: r.scoreBand,
    finalScore: r.finalScore,
    detectedAt: new Date(r.detectedAt),
    replayId: runId,
    data: { ...r.data, ...marks },
  };
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
  const prepared = await prepareReplay(deps, params);
  const total = prepared.sessionTs.length;
  let run: ReplayRun;
  let startAt = 0;
  let books = {};
  if (existing && existing.sessionsTotal === total) {
    run = existing;
    startAt = existing.sessionsDone;
    books = await replays.books(existing.id);
    await replays.resume(existing.id);
    log.info('replay resumed', { runId: run.id, sessionsDone: startAt, sessionsTotal: total });
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
  let signals = run.signals;
  let records = run.records;
  try {
    for await (const chunk of replayChunks(deps, prepared, { startAt, books, chunkSessions: options.chunkSessions })) {
      const entries = chunk.records.map((r) => replayEntry(r, run.id, prepared));
      records += await replays.commitChunk(run.id, entries, { from: chunk.from, sessionsDone: chunk.to, signals: chunk.tally.signals, books: chunk.books });
      signals += chunk.tally.signals;
      await replays.ledger.checkpoint();
      // The chunk's records and entries are garbage now: collected at once rather than when JSC's collector,
      // which counts the store's SharedArrayBuffers as heap, gets to them (workers/replay collectGarbage).
      Bun.gc(true);
      if (chunk.tally.unresolvable > 0) log.warn('replay: outcomes unresolvable', { runId: run.id, count: chunk.tally.unresolvable, through: prepared.dates[chunk.to - 1] });
      options.onProgress?.({ runId: run.id, sessionsDone: chunk.to, sessionsTotal: total, resumedAt: startAt, through: prepared.dates[chunk.to - 1]!, signals, records, elapsedMs: Date.now() - started });
      if (options.signal?.aborted) return (await replays.get(run.id))!;
    }
  } catch (error) {
    // Another instance carries the run on (ReplayConflict): it is not this one's to mark failed.
    if (!(error instanceof ReplayConflict)) await replays.finish(run.id, 'failed', String(error));
    throw error;
  }
  await replays.finish(run.id, 'done');
  log.info('replay done', { runId: run.id, sessions: total, signals, records, ms: Date.now() - started });
  return (await replays.get(run.id))!;
}
