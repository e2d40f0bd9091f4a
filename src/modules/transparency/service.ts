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
import { inFlight } from '../../in-flight';
import { LEDGER_LIMIT_MAX, VERIFY_METHOD, type CheckpointsResponse, type LedgerQuery, type LedgerResponse, type VerifyResponse } from './model';
import { ledgerView, type LedgerSources } from './sources';

/**
 * Signal records read per query of a page (with their follow-ups), and turned into entries, with the server's
 * thread free between the steps: PGlite answers in the server's thread and settles in microtasks, so two
 * queries and the parsing of their rows without a yield between are one stretch (100 a slice held it 110–230 ms
 * at load 23, the stall guard).
 */
const PAGE_SLICE = 50;

/** Records serialised between two turns of the event loop (a page holds up to 1,000, about 1.5 KB each). */
const SERIALIZE_SLICE = 50;

/** Pages being read, per server's sources and query: identical requests at once share one read and one body. */
const pagesInFlight = inFlight<LedgerSources, LedgerPageJson>();

/** A ledger page serialised, with its `count` (the matches of all pages: where the next page is, for its Link). */
export interface LedgerPageJson {
  text: string;
  count: number;
}

export async function ledgerPage(sources: LedgerSources, query: LedgerQuery): Promise<LedgerResponse> {
  if (query.since && query.until && query.since > query.until) throw new AppError('invalid_parameter', `Query parameter 'since' (${query.since}) is after 'until' (${query.until})`);
  const view = await ledgerView(sources, query);
  const { ledger } = view;
  const { limit, offset } = query;
  // The signal index (db/repositories/ledger-signals) locates the page and gives the count of matches, as of
  // the head read first; the page's records are read by seq and their follow-ups up to that head, so the page is
  // the ledger as of one head — read by index, with no trade book loaded (a boot replay's took 16–28 s, issue 27).
  const head = await ledger.head();
  const { total, seqs } = await ledger.signals.page(ledger.replayId, ledgerFilter(query), head.seq, offset, limit);
  const records: LedgerEntryView[] = [];
  for (let i = 0; i < seqs.length; i += PAGE_SLICE) {
    if (i > 0) await yieldToEventLoop();
    const rows = await ledger.recordsAt(seqs.slice(i, i + PAGE_SLICE));
    await yieldToEventLoop();
    const followUps = await ledger.followUps(rows.map((r) => r.signalId), head.seq);
    await yieldToEventLoop();
    records.push(...ledgerEntries(rows, followUps));
  }
  return {
    count: total,
    filters: { since: query.since ?? null, until: query.until ?? null, patternType: query.patternType ?? null, scoreBand: query.scoreBand ?? null, limit, offset, maxLimit: LEDGER_LIMIT_MAX },
    records,
    head: { seq: head.seq, hash: head.hash },
    source: view.source,
    replay: view.replay,
  };
}

/**
 * A ledger page as the route sends it: its JSON, serialised `SERIALIZE_SLICE`
 * records at a time with the event loop free between them (the whole page at
 * once, with Elysia's response check and mirror over it, held the server's
 * thread 130–350 ms per caller at load 23). Callers asking the same page at
 * once share one read and the same string (so plugins/representation hashes
 * and compresses it once). The fields are LedgerResponse's, `records` last.
 */
export function ledgerPageJson(sources: LedgerSources, query: LedgerQuery): Promise<LedgerPageJson> {
  const key = JSON.stringify([query.source, query.replayId, query.since, query.until, query.patternType, query.scoreBand, query.limit, query.offset]);
  return pagesInFlight(sources, key, () => ledgerPage(sources, query).then(serializePage));
}

async function serializePage({ records, ...rest }: LedgerResponse): Promise<LedgerPageJson> {
  const parts: string[] = [];
  for (let i = 0; i < records.length; i += SERIALIZE_SLICE) {
    if (i > 0) await yieldToEventLoop();
    parts.push(JSON.stringify(records.slice(i, i + SERIALIZE_SLICE)).slice(1, -1));
  }
  return { text: `${JSON.stringify(rest).slice(0, -1)},"records":[${parts.join(',')}]}`, count: rest.count };
}

/**
 * Both chains verified by the server's verifiers (each reused per head and
 * extended incrementally), with the method in words: `ok` only when both
 * hold; the top-level figures are the live chain's (as before the replay chain
 * existed), each chain's own report under `chains`.
 */
export async function verification(verifiers: { live: LedgerVerifier; replay: LedgerVerifier }): Promise<VerifyResponse> {
  // One chain after the other: two passes at once each yield between their slices, and the two slices queued for
  // the same turn of the loop ran back to back, one stretch (PGlite runs every read on this thread anyway).
  const live = await verifiers.live.verify();
  const replay = await verifiers.replay.verify();
  const reason = live.reason ?? (replay.reason === null ? null : `replay chain: ${replay.reason}`);
  return { ...live, ok: live.ok && replay.ok, reason, durationMs: live.durationMs + replay.durationMs, chains: { live, replay }, method: VERIFY_METHOD };
}

export async function checkpoints(ledger: LedgerRepository): Promise<CheckpointsResponse> {
  const list = await ledger.checkpoints();
  return { count: list.length, checkpoints: list.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })) };
}
