/**
 * @module ledger/verify
 * Recomputes the whole chain and names the first record that does not hold:
 * a gap or reordering in `seq`, a `prevHash` that is not the previous record's
 * hash, a `hash` that is not SHA-256(prevHash ‖ body), or a body whose own seq,
 * kind or signal id disagree with its row. Every stored checkpoint must be a
 * prefix of the chain: the recomputed hash at its seq must equal its head hash.
 *
 * @example
 * const report = await verifyLedger(repository);
 * report.ok; // => true, or false with report.firstBadSeq and report.reason
 */
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
  durationMs: number;
}

const PAGE = 20_000;

/** Whether a hashed body names the same seq, kind and signal as its row's columns. */
function bodyAgrees(body: unknown, row: { seq: number; kind: string; signalId: string }): boolean {
  if (typeof body !== 'object' || body === null) return false;
  return 'seq' in body && body.seq === row.seq && 'kind' in body && body.kind === row.kind && 'signalId' in body && body.signalId === row.signalId;
}

export async function verifyLedger(ledger: LedgerRepository): Promise<VerifyReport> {
  const started = performance.now();
  const checkpoints = await ledger.checkpoints();
  const wanted = new Map(checkpoints.map((c) => [c.seq, c.headHash]));
  let prev = GENESIS_HASH;
  let expected = 1;
  let count = 0;
  let verified = 0;
  let firstBadCheckpoint: number | null = null;
  let bad: { seq: number; reason: string } | null = null;
  let after = 0;
  for (;;) {
    const rows = await ledger.page(after, PAGE);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (row.seq !== expected) bad = { seq: row.seq, reason: `expected seq ${expected}, found ${row.seq} (a record is missing or out of order)` };
      else if (row.prevHash !== prev) bad = { seq: row.seq, reason: 'prev_hash is not the previous record\'s hash' };
      else if (chainHash(prev, row.body) !== row.hash) bad = { seq: row.seq, reason: 'hash does not match SHA-256(prev_hash ‖ body): the record was altered' };
      else {
        if (!bodyAgrees(JSON.parse(row.body), row)) bad = { seq: row.seq, reason: 'the row disagrees with its hashed body' };
      }
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
    if (bad) break;
    after = rows[rows.length - 1]!.seq;
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
  const [live, replay] = await Promise.all([verifyLedger(chains.live), verifyLedger(chains.replay)]);
  return { ok: live.ok && replay.ok, live, replay };
}
