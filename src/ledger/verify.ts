/**
 * @module ledger/verify
 * Recomputes the chain and names the first record that does not hold: a gap
 * or reordering in `seq`, a `prevHash` that is not the previous record's hash,
 * a `hash` that is not SHA-256(prevHash ‖ body), or a body whose own seq, kind
 * or signal id disagree with its row. Every stored checkpoint must be a prefix
 * of the chain: the recomputed hash at its seq must equal its head hash.
 *
 * `verifyLedger` recomputes everything, or — given a head verified before —
 * only the records after it (checking first that the record at that head is
 * unchanged, and that the published checkpoints inside it still match).
 *
 * `LedgerVerifier`, the server's verifier (issues 26, 27), goes on from the
 * verification checkpoint stored with the chain (ledger_chain_state: the last
 * head a pass found whole, whichever instance or `breakline verify-ledger`
 * made it): a head that moved by a few records costs a few records, not the
 * whole chain, across restarts too; a chain never verified is recomputed from
 * its first record once. It answers from its last report while the head is
 * the same, and runs one pass at a time however many callers ask. What it
 * cannot see is a record changed *before* the stored checkpoint (other than
 * the checkpoint's own record and the published checkpoints' records): only a
 * full pass finds that, and `breakline verify-ledger` always makes one.
 *
 * @example
 * const report = await verifyLedger(repository);
 * report.ok; // => true, or false with report.firstBadSeq and report.reason
 */
import { yieldToEventLoop } from '../db/client';
import type { LedgerRepository } from '../db/repositories/ledger';
import { chainHash, GENESIS_HASH } from './chain';

export interface VerifyReport {
  ok: boolean;
  count: number;
  head: { seq: number; hash: string };
  /** The first record that fails, or null. */
  firstBadSeq: number | null;
  reason: string | null;
  checkpoints: { count: number; verified: number; firstBadSeq: number | null };
  /** `full`: every record recomputed; `incremental`: the records after `fromSeq`, chained to the head verified before. */
  scope: 'full' | 'incremental';
  fromSeq: number;
  /** When this report's pass ran (a report is reused while the head is unchanged). */
  verifiedAt: string;
  durationMs: number;
}

/** Records read per query by default (PostgreSQL; the server passes less for PGlite, which runs in its thread). */
const PAGE = 20_000;
/**
 * Yield to the event loop after hashing this many records (a page on PostgreSQL is 20,000); a page is read and
 * hashed in separate turns too: on PGlite, whose queries run in the server's thread, a read of 250 records and
 * their hashing in one turn was the longest stretch of a cold verification (bench/stall, issue 27).
 */
const HASH_SLICE = 100;

/** Whether a hashed body names the same seq, kind and signal as its row's columns. */
function bodyAgrees(body: unknown, row: { seq: number; kind: string; signalId: string }): boolean {
  if (typeof body !== 'object' || body === null) return false;
  return 'seq' in body && body.seq === row.seq && 'kind' in body && body.kind === row.kind && 'signalId' in body && body.signalId === row.signalId;
}

/**
 * Verifies the chain; with `from` (a head an earlier pass verified), only the
 * records after it.
 */
export async function verifyLedger(ledger: LedgerRepository, from?: { seq: number; hash: string }, pageSize = PAGE): Promise<VerifyReport> {
  const started = performance.now();
  const checkpoints = await ledger.checkpoints();
  await yieldToEventLoop();
  const wanted = new Map(checkpoints.map((c) => [c.seq, c.headHash]));
  const start = from && from.seq > 0 ? from : { seq: 0, hash: GENESIS_HASH };
  let prev = start.hash;
  let expected = start.seq + 1;
  let count = start.seq;
  let verified = 0;
  let firstBadCheckpoint: number | null = null;
  let bad: { seq: number; reason: string } | null = null;

  if (start.seq > 0) {
    // The verified head must still be there, unchanged; the checkpoints inside the verified prefix must still match it.
    const [row] = await ledger.page(start.seq - 1, 1);
    if (!row || row.seq !== start.seq || row.hash !== start.hash) bad = { seq: start.seq, reason: `the record at seq ${start.seq} changed or vanished since it was verified` };
    const inside = checkpoints.filter((c) => c.seq <= start.seq);
    const hashes = await ledger.hashesAt(inside.map((c) => c.seq));
    for (const c of inside) {
      if (hashes.get(c.seq) === c.headHash) verified++;
      else firstBadCheckpoint ??= c.seq;
    }
    await yieldToEventLoop();
  }

  let after = start.seq;
  while (!bad) {
    const rows = await ledger.page(after, pageSize);
    if (rows.length === 0) break;
    for (const [k, row] of rows.entries()) {
      if (k % HASH_SLICE === 0) await yieldToEventLoop();
      if (row.seq !== expected) bad = { seq: row.seq, reason: `expected seq ${expected}, found ${row.seq} (a record is missing or out of order)` };
      else if (row.prevHash !== prev) bad = { seq: row.seq, reason: "prev_hash is not the previous record's hash" };
      else if (chainHash(prev, row.body) !== row.hash) bad = { seq: row.seq, reason: 'hash does not match SHA-256(prev_hash ‖ body): the record was altered' };
      else if (!bodyAgrees(JSON.parse(row.body), row)) bad = { seq: row.seq, reason: 'the row disagrees with its hashed body' };
      if (bad) break;
      const cp = wanted.get(row.seq);
      if (cp !== undefined) {
        if (cp === row.hash) verified++;
        else firstBadCheckpoint ??= row.seq;
      }
      prev = row.hash;
      expected++;
      count++;
    }
    after = rows[rows.length - 1]!.seq;
    await yieldToEventLoop();
  }
  // A checkpoint past the end of the chain means records were removed.
  for (const c of checkpoints) if (c.seq > count && !bad) firstBadCheckpoint ??= c.seq;
  const checkpointBroken = firstBadCheckpoint !== null;
  return {
    ok: !bad && !checkpointBroken,
    count,
    head: { seq: count, hash: prev },
    firstBadSeq: bad?.seq ?? firstBadCheckpoint,
    reason: bad?.reason ?? (checkpointBroken ? `checkpoint at seq ${firstBadCheckpoint} is not a prefix of the current chain` : null),
    checkpoints: { count: checkpoints.length, verified, firstBadSeq: firstBadCheckpoint },
    scope: start.seq > 0 ? 'incremental' : 'full',
    fromSeq: start.seq,
    verifiedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
  };
}

/** Both chains verified, each on its own (the live ledger and the replay ledger). */
export interface ChainsReport {
  ok: boolean;
  live: VerifyReport;
  replay: VerifyReport;
}

/**
 * Verifies the live chain and the replay chain; `ok` only when both hold.
 * @example
 * const { ok, live, replay } = await verifyLedgers({ live: services.ledger, replay: services.replayLedger });
 */
export async function verifyLedgers(chains: { live: LedgerRepository; replay: LedgerRepository }): Promise<ChainsReport> {
  // Full passes; a chain that holds stores its head as the verification checkpoint the server goes on from.
  const [live, replay] = await Promise.all([verifyOn(chains.live, undefined, true), verifyOn(chains.replay, undefined, true)]);
  return { ok: live.ok && replay.ok, live, replay };
}

/** The server's verifier of one chain (built once in services.ts; see the module comment). */
export class LedgerVerifier {
  private last: { head: { seq: number; hash: string }; report: VerifyReport } | undefined;
  private running: Promise<VerifyReport> | undefined;

  constructor(
    private readonly ledger: LedgerRepository,
    private readonly options: { pageSize?: number } = {},
  ) {}

  /** The report for the current head: reused, or verified on from the stored checkpoint; one pass at a time. */
  verify(): Promise<VerifyReport> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<VerifyReport> {
    const head = await this.ledger.head();
    const last = this.last;
    if (last && last.head.seq === head.seq && last.head.hash === head.hash) return last.report;
    const report = await verifyOn(this.ledger, this.options.pageSize);
    this.last = { head, report };
    return report;
  }
}

/**
 * Verifies a chain on from its stored verification checkpoint (from its first
 * record when it has none, or with `full`), and stores the head it found whole
 * as the new checkpoint. A failing pass stores nothing: the next one starts
 * from the same checkpoint.
 */
export async function verifyOn(ledger: LedgerRepository, pageSize?: number, full = false): Promise<VerifyReport> {
  const stored = full ? undefined : await ledger.facts.state();
  await yieldToEventLoop();
  const from = stored && stored.verifiedSeq > 0 && stored.verifiedHash ? { seq: stored.verifiedSeq, hash: stored.verifiedHash } : undefined;
  const report = await verifyLedger(ledger, from, pageSize);
  if (report.ok && report.head.seq > 0 && report.head.seq !== from?.seq) await ledger.facts.storeVerified(report.head, new Date(report.verifiedAt), report.scope === 'full');
  return report;
}
