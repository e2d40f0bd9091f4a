/**
 * @module db/repositories/ledger-facts
 * The facts beside a chain (schema/ledger-facts): appended by the appender in
 * its own transaction (`applyIn`, from the records it just wrote — the data
 * it has in hand, parsed once), filled in for records that predate them by
 * `backfillStep` (a page of records at a time, under the chain's writer
 * lock), and read in seq order. Only appended, never updated: writing them
 * costs an insert into a table with one index (two on the replay chain), and
 * nothing is left for a vacuum the embedded database never runs.
 */
import { and, asc, eq, gt, lte, min, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { ledgerChainState, type LedgerChainStateRow, type LedgerFactRow, type LedgerFactsTable, type LedgerRecordRow, type LedgerRecordsTable } from '../schema';

/** What the facts keep of a signal record's data: what the figures, the record's alert policy (alert), the monthly list, the CSV and the forecast read. */
export const SIGNAL_FACTS = [
  'id', 'symbol', 'timeframe', 'patternType', 'direction', 'detectedAt', 'state', 'triggerPrice', 'target1', 'stopLoss',
  'finalScore', 'scoreBand', 'confidence', 'regime', 'priceAtDetection', 'alert',
] as const;
/** What they keep of an outcome record's data. */
export const OUTCOME_FACTS = ['outcome', 'entered', 'entry', 'entryAt', 'exitAt', 'exitPrice', 'rMultiple', 'daysHeld'] as const;

/** An object's keys sorted (a stored record's body is canonical JSON: the facts of one read back match those of the data appended). */
const sortedKeys = (x: unknown): unknown =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x;

function pick(data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (data[key] !== undefined) out[key] = sortedKeys(data[key]);
  return out;
}

/** A record as the facts see it: its row and its data (parsed once, by whoever has it). */
export interface AppliedRecord {
  row: Pick<LedgerRecordRow, 'seq' | 'kind' | 'signalId' | 'replayId' | 'detectedAt' | 'patternType' | 'scoreBand' | 'hash' | 'recordedAt'>;
  data: Record<string, unknown>;
}

/** The chain a facts repository keeps: its records, its facts, its writer's lock, its name in ledger_chain_state. */
export interface FactsChain {
  name: 'live' | 'replay';
  records: LedgerRecordsTable;
  facts: LedgerFactsTable;
  lockKey: number;
}

type Tx = Pick<Db, 'select' | 'insert' | 'execute'>;

export class LedgerFactsRepository {
  constructor(
    private readonly db: Db,
    readonly chain: FactsChain,
  ) {}

  /** `where` for one replay's rows (or the whole chain without one). */
  private scoped(replayId: string | undefined, ...conditions: (SQL | undefined)[]): SQL | undefined {
    return and(...conditions, replayId === undefined ? undefined : eq(this.chain.facts.replayId, replayId));
  }

  /**
   * Appends the facts of `records` inside the transaction that wrote them:
   * each signal's and each outcome's, and on the live chain each state change
   * (the CSV's `state`; no reader of the replay chain needs them).
   */
  async applyIn(tx: Tx, records: readonly AppliedRecord[]): Promise<void> {
    const rows: Record<string, unknown>[] = [];
    for (const { row, data } of records) {
      let facts: Record<string, unknown>;
      if (row.kind === 'signal') facts = pick(data, SIGNAL_FACTS);
      else if (row.kind === 'outcome') facts = pick(data, OUTCOME_FACTS);
      else if (row.kind === 'event' && this.chain.name === 'live' && typeof data.to === 'string') facts = { state: data.to };
      else continue;
      rows.push({
        seq: row.seq,
        kind: row.kind === 'event' ? 'state' : row.kind,
        signal_id: row.signalId,
        replay_id: row.replayId,
        detected_at: row.detectedAt?.toISOString() ?? null,
        pattern_type: row.patternType,
        score_band: row.scoreBand,
        hash: row.hash,
        recorded_at: row.recordedAt.toISOString(),
        facts: JSON.stringify(facts),
      });
    }
    if (rows.length === 0) return;
    await tx.execute(sql`
      insert into ${this.chain.facts} (seq, kind, signal_id, replay_id, detected_at, pattern_type, score_band, hash, recorded_at, facts)
      select seq, kind, signal_id, replay_id, detected_at, pattern_type, score_band, hash, recorded_at, facts
      from json_to_recordset(${JSON.stringify(rows)}::json) as r(seq bigint, kind text, signal_id text, replay_id text, detected_at timestamptz,
        pattern_type text, score_band text, hash text, recorded_at timestamptz, facts text)
      on conflict (seq) do nothing`);
  }

  /** This chain's state row (a database that has none yet: nothing backfilled, nothing verified). */
  async state(tx: Pick<Db, 'select'> = this.db): Promise<LedgerChainStateRow> {
    const [row] = await tx.select().from(ledgerChainState).where(eq(ledgerChainState.chain, this.chain.name));
    return row ?? { chain: this.chain.name, factsThrough: 0, factsComplete: false, verifiedSeq: 0, verifiedHash: null, verifiedAt: null, fullAt: null };
  }

  /** Stores the verification checkpoint: the head a verification found whole. */
  async storeVerified(head: { seq: number; hash: string }, at: Date, full: boolean): Promise<void> {
    await this.db
      .insert(ledgerChainState)
      .values({ chain: this.chain.name, factsThrough: 0, factsComplete: false, verifiedSeq: head.seq, verifiedHash: head.hash, verifiedAt: at, fullAt: full ? at : null })
      .onConflictDoUpdate({
        target: ledgerChainState.chain,
        set: { verifiedSeq: head.seq, verifiedHash: head.hash, verifiedAt: at, ...(full ? { fullAt: at } : {}) },
      });
  }

  /**
   * Fills in the facts of up to `limit` records after the backfill's last, in
   * one transaction under the chain's writer lock (appends wait for it).
   * Resolves to whether the facts are complete now, and through which seq.
   */
  async backfillStep(limit: number, parse: (row: LedgerRecordRow) => Record<string, unknown>): Promise<{ complete: boolean; through: number }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${this.chain.lockKey})`);
      const state = await this.state(tx);
      if (state.factsComplete) return { complete: true, through: state.factsThrough };
      const { records } = this.chain;
      const rows = await tx.select().from(records).where(gt(records.seq, state.factsThrough)).orderBy(asc(records.seq)).limit(limit);
      await this.applyIn(
        tx,
        rows.map((row) => ({ row, data: parse(row) })),
      );
      const through = rows.at(-1)?.seq ?? state.factsThrough;
      const complete = rows.length < limit;
      await tx
        .insert(ledgerChainState)
        .values({ chain: this.chain.name, factsThrough: through, factsComplete: complete })
        .onConflictDoUpdate({ target: ledgerChainState.chain, set: { factsThrough: through, factsComplete: complete } });
      return { complete, through };
    });
  }

  /**
   * The facts of one replay (or of the live chain) in the next `limit` seqs after `afterSeq` (up to `throughSeq`),
   * in chain order, and the seq they cover through: the next page starts after it, and the read is done once it
   * is `throughSeq`. A range with none of the replay's facts (another replay's records) goes on to its next fact.
   *
   * Read by seq ranges, not by `ORDER BY seq LIMIT` over everything after the cursor: the embedded database never
   * gathers statistics (PGlite runs no autovacuum, so no ANALYZE), and for a two-sided range its planner guesses
   * a handful of rows, fetches every row after the cursor by bitmap and sorts them, for each page — after a first
   * start's boot replay (254k facts) every page of the replay's book sorted what was left of it, 90 ms a page,
   * and a cold replay scorecard, monthly rollup or ledger page took minutes (bench/stall). A range of `limit`
   * seqs holds at most `limit` facts (seq is the key), so a page costs the same wherever it is.
   */
  async page(replayId: string | undefined, afterSeq: number, throughSeq: number, limit: number): Promise<{ rows: LedgerFactRow[]; through: number }> {
    const { facts } = this.chain;
    const upTo = Math.min(throughSeq, afterSeq + limit);
    const rows = await this.db
      .select()
      .from(facts)
      .where(this.scoped(replayId, gt(facts.seq, afterSeq), lte(facts.seq, upTo)))
      .orderBy(asc(facts.seq));
    if (rows.length > 0 || upTo === throughSeq) return { rows, through: upTo };
    const [next] = await this.db
      .select({ seq: min(facts.seq) })
      .from(facts)
      .where(this.scoped(replayId, gt(facts.seq, upTo), lte(facts.seq, throughSeq)));
    return { rows, through: next?.seq == null ? throughSeq : Number(next.seq) - 1 };
  }
}
