/**
 * @module modules/transparency/service
 * Reads of the public ledger: filtered pages, the whole ledger as CSV (streamed
 * page by page), verification and checkpoints.
 */
import type { LedgerRepository } from '../../db/repositories/ledger';
import { ledgerFilter } from '../../ledger/filter';
import { csvHeader, csvRows, ledgerEntries } from '../../ledger/serialize';
import { verifyLedger } from '../../ledger/verify';
import { AppError } from '../../errors';
import { LEDGER_LIMIT_MAX, VERIFY_METHOD, type CheckpointsResponse, type LedgerQuery, type LedgerResponse, type VerifyResponse } from './model';

export async function ledgerPage(ledger: LedgerRepository, query: LedgerQuery): Promise<LedgerResponse> {
  if (query.since && query.until && query.since > query.until) throw new AppError('invalid_parameter', `Query parameter 'since' (${query.since}) is after 'until' (${query.until})`);
  const { limit, offset } = query;
  const filter = ledgerFilter(query);
  const [{ rows, total }, head] = await Promise.all([ledger.signalRecords(filter, limit, offset), ledger.head()]);
  const followUps = await ledger.followUps(rows.map((r) => r.signalId));
  return {
    count: total,
    filters: { since: query.since ?? null, until: query.until ?? null, patternType: query.patternType ?? null, scoreBand: query.scoreBand ?? null, limit, offset, maxLimit: LEDGER_LIMIT_MAX },
    records: ledgerEntries(rows, followUps),
    head: { seq: head.seq, hash: head.hash },
  };
}

/** The whole ledger as CSV, read and written 2,000 signals at a time. */
export function ledgerCsv(ledger: LedgerRepository): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let offset = 0;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvHeader()));
        return;
      }
      const { rows } = await ledger.signalRecords({}, 2000, offset);
      if (rows.length === 0) return controller.close();
      offset += rows.length;
      controller.enqueue(encoder.encode(csvRows(ledgerEntries(rows, await ledger.followUps(rows.map((r) => r.signalId))))));
    },
  });
}

/** The whole chain recomputed (ledger/verify), with the method in words. */
export async function verification(ledger: LedgerRepository): Promise<VerifyResponse> {
  return { ...(await verifyLedger(ledger)), method: VERIFY_METHOD };
}

export async function checkpoints(ledger: LedgerRepository): Promise<CheckpointsResponse> {
  const list = await ledger.checkpoints();
  return { count: list.length, checkpoints: list.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })) };
}
