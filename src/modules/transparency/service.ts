/**
 * @module modules/transparency/service
 * Reads of the public ledger: filtered pages, verification and checkpoints
 * (the CSV file is ledger/csv's, rendered once per head).
 */
import type { LedgerRepository } from '../../db/repositories/ledger';
import { ledgerEntries } from '../../ledger/serialize';
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

/** The chain verified by the server's verifier (reused per head, extended incrementally), with the method in words. */
export async function verification(verifier: LedgerVerifier): Promise<VerifyResponse> {
  return { ...(await verifier.verify()), method: VERIFY_METHOD };
}

export async function checkpoints(ledger: LedgerRepository): Promise<CheckpointsResponse> {
  const list = await ledger.checkpoints();
  return { count: list.length, checkpoints: list.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })) };
}
