/**
 * @module modules/transparency/sources
 * Which ledger a Transparency read shows: `source=live` (default), the signals
 * the service surfaced as they happened, or `source=replay`, a point-in-time
 * replay of history in its own chain (the newest finished replay, or the one
 * `replayId` names). Every read says which it shows, and a replay read carries
 * the replay's parameters, data source and survivorship statement.
 */
import type { LedgerRepository } from '../../db/repositories/ledger';
import type { ReplayParams } from '../../domain/replay';
import type { MarketData } from '../../market-data';
import type { KernelPool } from '../../pool';
import type { BarStore } from '../../store';
import type { ReplayRun, ReplayRunsRepository } from '../../db/repositories/replays';
import { AppError } from '../../errors';
import type { LedgerBooks, TradeBook } from '../../ledger/book';
import type { LedgerSource, ReplaySummary } from './model';

/** The ledgers a Transparency read may show (services.ts builds them). */
export interface LedgerSources {
  ledger: LedgerRepository;
  /** The trades of each chain, kept in memory and extended by its head (ledger/book). */
  ledgerFigures: LedgerBooks;
  replayLedger: LedgerRepository;
  replayFigures: LedgerBooks;
  replays: ReplayRunsRepository;
  /** For the record section's baselines (jobs/record, in the pool's background lane over the bar store). */
  marketData: MarketData;
  pool: KernelPool;
  barStore: BarStore;
}

/** A resolved source: the ledger (scoped to the replay) and its trade book. */
export interface LedgerView {
  source: LedgerSource;
  ledger: LedgerRepository;
  /** The source's trade book at the current head (its figures are cached on it, per head). */
  book(): Promise<TradeBook>;
  replay: ReplaySummary | null;
  /** The replay's parameters (its universe, for the baseline); null for the live ledger. */
  params: ReplayParams | null;
}

/** What a replay read says about the replay it shows. */
export function replaySummary(run: ReplayRun): ReplaySummary {
  return {
    id: run.id,
    status: run.status,
    dataSource: run.source,
    origin: run.origin,
    params: run.params,
    universe: run.universe,
    sessionsDone: run.sessionsDone,
    sessionsTotal: run.sessionsTotal,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

/** Resolves `source` (and `replayId`); 404 when a replay is asked for and none exists (or not that one). */
export async function ledgerView(sources: LedgerSources, query: { source: LedgerSource; replayId?: string }): Promise<LedgerView> {
  if (query.source === 'live') {
    if (query.replayId) throw new AppError('invalid_parameter', "Query parameter 'replayId' needs source=replay");
    return { source: 'live', ledger: sources.ledger, book: () => sources.ledgerFigures.book(), replay: null, params: null };
  }
  const run = query.replayId ? await sources.replays.get(query.replayId) : await sources.replays.current();
  if (!run) throw new AppError('not_found', query.replayId ? `No replay ${query.replayId}` : 'No replay of history has been run (see `breakline replay`)');
  return { source: 'replay', ledger: sources.replayLedger.forReplay(run.id), book: () => sources.replayFigures.book(run.id), replay: replaySummary(run), params: run.params };
}
