/**
 * @module modules/transparency/service
 * Reads of the public ledger: filtered pages, the whole ledger as CSV (streamed
 * in small chunks, ETag per head), verification and checkpoints.
 */
import type { LedgerRepository } from '../../db/repositories/ledger';
import { csvHeader, csvRows, ledgerEntries } from '../../ledger/serialize';
import type { LedgerVerifier } from '../../ledger/verify';
import { AppError } from '../../errors';
import { LEDGER_LIMIT_MAX, VERIFY_METHOD, type CheckpointsResponse, type LedgerQuery, type LedgerResponse, type VerifyResponse } from './model';

const dayStart = (d: string) => new Date(`${d}T00:00:00.000Z`);
const dayEnd = (d: string) => new Date(`${d}T23:59:59.999Z`);

export async function ledgerPage(ledger: LedgerRepository, query: LedgerQuery): Promise<LedgerResponse> {
  if (query.since && query.until && query.since > query.until) throw new AppError('invalid_parameter', `Query parameter 'since' (${query.since}) is after 'until' (${query.until})`);
  const { limit, offset } = query;
  const filter = { since: query.since ? dayStart(query.since) : undefined, until: query.until ? dayEnd(query.until) : undefined, patternType: query.patternType, scoreBand: query.scoreBand };
  const [{ rows, total }, head] = await Promise.all([ledger.signalRecords(filter, limit, offset), ledger.head()]);
  const followUps = await ledger.followUps(rows.map((r) => r.signalId));
  return {
    count: total,
    filters: { since: query.since ?? null, until: query.until ?? null, patternType: query.patternType ?? null, scoreBand: query.scoreBand ?? null, limit, offset, maxLimit: LEDGER_LIMIT_MAX },
    records: ledgerEntries(rows, followUps),
    head: { seq: head.seq, hash: head.hash },
  };
}

/** Signals per CSV chunk: small enough that other requests are served between chunks. */
const CSV_CHUNK = 250;

/**
 * The whole ledger as CSV, consistent with the head it starts from: keyset
 * pages of CSV_CHUNK signal records (and their follow-ups up to that head),
 * each encoded and sent before the next is read. The ETag is the head's hash,
 * so a client that has this head already gets `stream: null` (304) without a
 * read.
 */
export async function ledgerCsv(ledger: LedgerRepository, ifNoneMatch: string | null): Promise<{ etag: string; stream: ReadableStream<Uint8Array> | null }> {
  const head = await ledger.head();
  const etag = `"${head.hash}"`;
  if (ifNoneMatch !== null && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) return { etag, stream: null };
  const encoder = new TextEncoder();
  let after = 0;
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvHeader()));
        return;
      }
      const rows = await ledger.signalPage(after, head.seq, CSV_CHUNK);
      if (rows.length === 0) return controller.close();
      after = rows[rows.length - 1]!.seq;
      const followUps = await ledger.followUps(rows.map((r) => r.signalId), head.seq);
      controller.enqueue(encoder.encode(csvRows(ledgerEntries(rows, followUps))));
    },
  });
  return { etag, stream };
}

/** The chain verified by the server's verifier (reused per head, extended incrementally), with the method in words. */
export async function verification(verifier: LedgerVerifier): Promise<VerifyResponse> {
  return { ...(await verifier.verify()), method: VERIFY_METHOD };
}

export async function checkpoints(ledger: LedgerRepository): Promise<CheckpointsResponse> {
  const list = await ledger.checkpoints();
  return { count: list.length, checkpoints: list.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })) };
}
