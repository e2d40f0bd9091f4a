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
import { factsText, rawJsonPair } from './ledger-text';
import { ledgerChainState, type LedgerChainStateRow, type LedgerFactRow, type LedgerFactsTable, type LedgerRecordRow, type LedgerRecordsTable } from '../schema';

export { OUTCOME_FACTS, SIGNAL_FACTS } from './ledger-text';

/** A record as the facts see it: its row and its facts (ledger-text `factsText`, made by whoever has its data). */
export interface AppliedRecord {
  row: Pick<LedgerRecordRow, 'seq' | 'kind' | 'signalId' | 'replayId' | 'detectedAt' | 'patternType' | 'scoreBand' | 'hash' | 'recordedAt'>;
  facts: string;
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

  /** Appends the facts of `records` inside the transaction that wrote them (each facts' JSON as it is: ledger-text `rawJsonPair`). */
  async applyIn(tx: Tx, records: readonly AppliedRecord[]): Promise<void> {
    if (records.length === 0) return;
    let param = '[';
    for (const { row, facts } of records) {
      const text = rawJsonPair(facts);
      param +=
        `${param.length > 1 ? ',' : ''}{"seq":${row.seq},"kind":${JSON.stringify(row.kind === 'event' ? 'state' : row.kind)},"signal_id":${JSON.stringify(row.signalId)},` +
        `"replay_id":${JSON.stringify(row.replayId)},"detected_at":${JSON.stringify(row.detectedAt?.toISOString() ?? null)},"pattern_type":${JSON.stringify(row.patternType)},` +
        `"score_band":${JSON.stringify(row.scoreBand)},"hash":${JSON.stringify(row.hash)},"recorded_at":${JSON.stringify(row.recordedAt.toISOString())},"facts":${text.raw},"facts_text":${text.quoted}}`;
    }
    await tx.execute(sql`
      insert into ${this.chain.facts} (seq, kind, signal_id, replay_id, detected_at, pattern_type, score_band, hash, recorded_at, facts)
      select seq, kind, signal_id, replay_id, detected_at, pattern_type, score_band, hash, recorded_at, coalesce(facts_text, facts::text)
      from json_to_recordset(${`${param}]`}::json) as r(seq bigint, kind text, signal_id text, replay_id text, detected_at timestamptz,
        pattern_type text, score_band text, hash text, recorded_at timestamptz, facts json, facts_text text)
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
      const applied: AppliedRecord[] = [];
      for (const row of rows) {
        const facts = factsText(row.kind, parse(row), this.chain.name);
        if (facts !== null) applied.push({ row, facts });
      }
      await this.applyIn(tx, applied);
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
