/**
 * @module modules/transparency/service
 * Reads of the public ledger: filtered pages (of the live ledger or a replay's,
 * sources.ts), the whole live ledger as CSV (streamed page by page),
 * verification of both chains, and checkpoints.
 */
import type { LedgerRepository } from '../../db/repositories/ledger';
import { csvHeader, csvRows, ledgerEntries } from '../../ledger/serialize';
import { verifyLedgers } from '../../ledger/verify';
import { AppError } from '../../errors';
import { LEDGER_LIMIT_MAX, VERIFY_METHOD, type CheckpointsResponse, type LedgerQuery, type LedgerResponse, type VerifyResponse } from './model';
import { ledgerView, type LedgerSources } from './sources';

const dayStart = (d: string) => new Date(`${d}T00:00:00.000Z`);
const dayEnd = (d: string) => new Date(`${d}T23:59:59.999Z`);

export async function ledgerPage(sources: LedgerSources, query: LedgerQuery): Promise<LedgerResponse> {
  if (query.since && query.until && query.since > query.until) throw new AppError('invalid_parameter', `Query parameter 'since' (${query.since}) is after 'until' (${query.until})`);
  const view = await ledgerView(sources, query);
  const { ledger } = view;
  const { limit, offset } = query;
  const filter = { since: query.since ? dayStart(query.since) : undefined, until: query.until ? dayEnd(query.until) : undefined, patternType: query.patternType, scoreBand: query.scoreBand };
  const [{ rows, total }, head] = await Promise.all([ledger.signalRecords(filter, limit, offset), ledger.head()]);
  const followUps = await ledger.followUps(rows.map((r) => r.signalId));
  return {
    count: total,
    filters: { since: query.since ?? null, until: query.until ?? null, patternType: query.patternType ?? null, scoreBand: query.scoreBand ?? null, limit, offset, maxLimit: LEDGER_LIMIT_MAX },
    records: ledgerEntries(rows, followUps),
    head: { seq: head.seq, hash: head.hash },
    source: view.source,
    replay: view.replay,
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

/**
 * Both chains recomputed (ledger/verify), with the method in words: `ok` only
 * when both hold; the top-level figures are the live chain's (as before the
 * replay chain existed), each chain's own report under `chains`.
 */
export async function verification(sources: Pick<LedgerSources, 'ledger' | 'replayLedger'>): Promise<VerifyResponse> {
  const { ok, live, replay } = await verifyLedgers({ live: sources.ledger, replay: sources.replayLedger });
  const reason = live.reason ?? (replay.reason === null ? null : `replay chain: ${replay.reason}`);
  return { ...live, ok, reason, durationMs: live.durationMs + replay.durationMs, chains: { live, replay }, method: VERIFY_METHOD };
}

export async function checkpoints(ledger: LedgerRepository): Promise<CheckpointsResponse> {
  const list = await ledger.checkpoints();
  return { count: list.length, checkpoints: list.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })) };
}
