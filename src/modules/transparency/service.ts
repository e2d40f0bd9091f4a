/**
 * @module modules/transparency/service
 * Reads of the public ledger: filtered pages (of the live ledger or a replay's,
 * sources.ts), verification of both chains, and checkpoints (the CSV file is
 * ledger/csv's, rendered once per head).
 */
import type { LedgerRepository } from '../../db/repositories/ledger';
import { ledgerFilter } from '../../ledger/filter';
import { yieldToEventLoop } from '../../db/client';
import { ledgerEntries, type LedgerEntryView } from '../../ledger/serialize';
import type { LedgerVerifier } from '../../ledger/verify';
import { AppError } from '../../errors';
import { LEDGER_LIMIT_MAX, VERIFY_METHOD, type CheckpointsResponse, type LedgerQuery, type LedgerResponse, type VerifyResponse } from './model';
import { ledgerView, type LedgerSources } from './sources';

/** Signal records read per query of a page (with their follow-ups): the server's thread is free between them. */
const PAGE_SLICE = 100;

export async function ledgerPage(sources: LedgerSources, query: LedgerQuery): Promise<LedgerResponse> {
  if (query.since && query.until && query.since > query.until) throw new AppError('invalid_parameter', `Query parameter 'since' (${query.since}) is after 'until' (${query.until})`);
  const view = await ledgerView(sources, query);
  const { ledger } = view;
  const { limit, offset } = query;
  // The trade book locates the page and counts the matches; the page's records are read by seq, their
  // follow-ups up to the book's head, so the page is the ledger as of one head.
  const book = await view.book();
  const { total, seqs } = book.select(ledgerFilter(query), offset, limit);
  const records: LedgerEntryView[] = [];
  for (let i = 0; i < seqs.length; i += PAGE_SLICE) {
    if (i > 0) await yieldToEventLoop();
    const rows = await ledger.recordsAt(seqs.slice(i, i + PAGE_SLICE));
    records.push(...ledgerEntries(rows, await ledger.followUps(rows.map((r) => r.signalId), book.head.seq)));
  }
  return {
    count: total,
    filters: { since: query.since ?? null, until: query.until ?? null, patternType: query.patternType ?? null, scoreBand: query.scoreBand ?? null, limit, offset, maxLimit: LEDGER_LIMIT_MAX },
    records,
    head: { seq: book.head.seq, hash: book.head.hash },
    source: view.source,
    replay: view.replay,
  };
}

/**
 * Both chains verified by the server's verifiers (each reused per head and
 * extended incrementally), with the method in words: `ok` only when both
 * hold; the top-level figures are the live chain's (as before the replay chain
 * existed), each chain's own report under `chains`.
 */
export async function verification(verifiers: { live: LedgerVerifier; replay: LedgerVerifier }): Promise<VerifyResponse> {
  const [live, replay] = await Promise.all([verifiers.live.verify(), verifiers.replay.verify()]);
  const reason = live.reason ?? (replay.reason === null ? null : `replay chain: ${replay.reason}`);
  return { ...live, ok: live.ok && replay.ok, reason, durationMs: live.durationMs + replay.durationMs, chains: { live, replay }, method: VERIFY_METHOD };
}

export async function checkpoints(ledger: LedgerRepository): Promise<CheckpointsResponse> {
  const list = await ledger.checkpoints();
  return { count: list.length, checkpoints: list.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })) };
}
