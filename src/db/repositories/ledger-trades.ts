/**
 * @module db/repositories/ledger-trades
 * The trades beside a chain (schema/ledger-trades): kept by the appender in
 * its own transaction (`applyIn`, from the records it just wrote), filled in
 * for records that predate them by `backfillStep` (a page of records at a
 * time, under the chain's writer lock), and read by seq or by the seq of
 * their last change. Each field moves only forward: a state by the seq of the
 * event that set it, an outcome once, so applying a record twice, or an older
 * one after a newer, changes nothing.
 */
import { and, asc, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { ledgerChainState, type LedgerChainStateRow, type LedgerRecordRow, type LedgerRecordsTable, type LedgerTradeRow, type LedgerTradesTable } from '../schema';

/** What a trade row keeps of its signal record's data: what the figures, the monthly list, the CSV and the forecast read. */
export const SIGNAL_FACTS = [
  'id', 'symbol', 'timeframe', 'patternType', 'direction', 'detectedAt', 'triggerPrice', 'target1', 'stopLoss',
  'finalScore', 'scoreBand', 'confidence', 'regime', 'priceAtDetection',
] as const;
/** What it keeps of its outcome record's data. */
export const OUTCOME_FACTS = ['outcome', 'entered', 'entry', 'entryAt', 'exitAt', 'exitPrice', 'rMultiple', 'daysHeld'] as const;

function pick(data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (data[key] !== undefined) out[key] = data[key];
  return out;
}

/** A record as the trades see it: its row and its data (parsed once, by whoever has it). */
export interface AppliedRecord {
  row: LedgerRecordRow;
  data: Record<string, unknown>;
}

/** The chain a trades repository keeps: its records, its trades, its writer's lock, its name in ledger_chain_state. */
export interface TradesChain {
  name: 'live' | 'replay';
  records: LedgerRecordsTable;
  trades: LedgerTradesTable;
  lockKey: number;
}

type Tx = Pick<Db, 'select' | 'insert' | 'execute'>;

const RECORD_TYPE = `seq bigint, signal_id text, replay_id text, detected_at timestamptz, pattern_type text, score_band text, hash text,
  recorded_at timestamptz, signal text, state text, state_seq bigint, outcome text, changed_seq bigint`;

/** A pending change of one trade (a new row, or an update of an existing one). */
interface Change {
  seq: number | null;
  signal_id: string;
  replay_id: string | null;
  detected_at: string | null;
  pattern_type: string | null;
  score_band: string | null;
  hash: string | null;
  recorded_at: string | null;
  signal: string | null;
  state: string | null;
  state_seq: number;
  outcome: string | null;
  changed_seq: number;
}

export class LedgerTradesRepository {
  constructor(
    private readonly db: Db,
    readonly chain: TradesChain,
  ) {}

  /** `where` for one replay's rows (or the whole chain without one). */
  private scoped(replayId: string | undefined, ...conditions: (SQL | undefined)[]): SQL | undefined {
    return and(...conditions, replayId === undefined ? undefined : eq(this.chain.trades.replayId, replayId));
  }

  /** Keeps the trades of `records` (in chain order), inside the transaction that wrote them. */
  async applyIn(tx: Tx, records: readonly AppliedRecord[]): Promise<void> {
    const inserts = new Map<string, Change>();
    const updates = new Map<string, Change>();
    for (const { row, data } of records) {
      if (row.kind !== 'signal' && row.kind !== 'event' && row.kind !== 'outcome') continue;
      const key = `${row.replayId ?? ''}\u0000${row.signalId}`;
      if (row.kind === 'signal') {
        inserts.set(key, {
          seq: row.seq,
          signal_id: row.signalId,
          replay_id: row.replayId,
          detected_at: row.detectedAt?.toISOString() ?? null,
          pattern_type: row.patternType,
          score_band: row.scoreBand,
          hash: row.hash,
          recorded_at: row.recordedAt.toISOString(),
          signal: JSON.stringify(pick(data, SIGNAL_FACTS)),
          state: typeof data.state === 'string' ? data.state : 'forming',
          state_seq: row.seq,
          outcome: null,
          changed_seq: row.seq,
        });
        continue;
      }
      const change =
        inserts.get(key) ??
        updates.get(key) ??
        updates
          .set(key, { seq: null, signal_id: row.signalId, replay_id: row.replayId, detected_at: null, pattern_type: null, score_band: null, hash: null, recorded_at: null, signal: null, state: null, state_seq: 0, outcome: null, changed_seq: 0 })
          .get(key)!;
      if (row.kind === 'event' && typeof data.to === 'string') {
        change.state = data.to;
        change.state_seq = row.seq;
      } else if (row.kind === 'outcome' && change.outcome === null) change.outcome = JSON.stringify(pick(data, OUTCOME_FACTS));
      change.changed_seq = row.seq;
    }
    const { trades } = this.chain;
    if (inserts.size) {
      await tx.execute(sql`
        insert into ${trades} (seq, signal_id, replay_id, detected_at, pattern_type, score_band, hash, recorded_at, signal, state, state_seq, outcome, changed_seq)
        select seq, signal_id, replay_id, detected_at, pattern_type, score_band, hash, recorded_at, signal, state, state_seq, outcome, changed_seq
        from json_to_recordset(${JSON.stringify([...inserts.values()])}::json) as r(${sql.raw(RECORD_TYPE)})
        on conflict do nothing`);
    }
    if (updates.size) {
      const sameSignal = this.chain.name === 'replay' ? sql`t.replay_id = u.replay_id and t.signal_id = u.signal_id` : sql`t.signal_id = u.signal_id`;
      await tx.execute(sql`
        update ${trades} as t set
          state = case when u.state is not null and u.state_seq > t.state_seq then u.state else t.state end,
          state_seq = greatest(t.state_seq, u.state_seq),
          outcome = coalesce(t.outcome, u.outcome),
          changed_seq = greatest(t.changed_seq, u.changed_seq)
        from json_to_recordset(${JSON.stringify([...updates.values()])}::json) as u(${sql.raw(RECORD_TYPE)})
        where ${sameSignal}`);
    }
  }

  /** This chain's state row (a database that has none yet: nothing backfilled, nothing verified). */
  async state(tx: Pick<Db, 'select'> = this.db): Promise<LedgerChainStateRow> {
    const [row] = await tx.select().from(ledgerChainState).where(eq(ledgerChainState.chain, this.chain.name));
    return row ?? { chain: this.chain.name, tradesThrough: 0, tradesComplete: false, verifiedSeq: 0, verifiedHash: null, verifiedAt: null, fullAt: null };
  }

  /** Stores the verification checkpoint: the head a verification found whole. */
  async storeVerified(head: { seq: number; hash: string }, at: Date, full: boolean): Promise<void> {
    await this.db
      .insert(ledgerChainState)
      .values({ chain: this.chain.name, tradesThrough: 0, tradesComplete: false, verifiedSeq: head.seq, verifiedHash: head.hash, verifiedAt: at, fullAt: full ? at : null })
      .onConflictDoUpdate({
        target: ledgerChainState.chain,
        set: { verifiedSeq: head.seq, verifiedHash: head.hash, verifiedAt: at, ...(full ? { fullAt: at } : {}) },
      });
  }

  /**
   * Fills in the trades of up to `limit` records after the backfill's last,
   * in one transaction under the chain's writer lock (appends wait for it).
   * Resolves to whether the trades are complete now, and through which seq.
   */
  async backfillStep(limit: number, parse: (row: LedgerRecordRow) => Record<string, unknown>): Promise<{ complete: boolean; through: number }> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${this.chain.lockKey})`);
      const state = await this.state(tx);
      if (state.tradesComplete) return { complete: true, through: state.tradesThrough };
      const { records } = this.chain;
      const rows = await tx.select().from(records).where(gt(records.seq, state.tradesThrough)).orderBy(asc(records.seq)).limit(limit);
      await this.applyIn(
        tx,
        rows.map((row) => ({ row, data: parse(row) })),
      );
      const through = rows.at(-1)?.seq ?? state.tradesThrough;
      const complete = rows.length < limit;
      await tx
        .insert(ledgerChainState)
        .values({ chain: this.chain.name, tradesThrough: through, tradesComplete: complete })
        .onConflictDoUpdate({ target: ledgerChainState.chain, set: { tradesThrough: through, tradesComplete: complete } });
      return { complete, through };
    });
  }

  /** Rows of one replay (or the live chain) whose last change is in (`afterChanged`, `throughSeq`], by that change. */
  changed(replayId: string | undefined, afterChanged: number, throughSeq: number, limit: number): Promise<LedgerTradeRow[]> {
    const { trades } = this.chain;
    return this.db
      .select()
      .from(trades)
      .where(this.scoped(replayId, gt(trades.changedSeq, afterChanged), lte(trades.changedSeq, throughSeq)))
      .orderBy(asc(trades.changedSeq))
      .limit(limit);
  }

  /** Rows with `afterSeq < seq ≤ throughSeq`, in chain order (the CSV of one head, page by page). */
  page(replayId: string | undefined, afterSeq: number, throughSeq: number, limit: number): Promise<LedgerTradeRow[]> {
    const { trades } = this.chain;
    return this.db
      .select()
      .from(trades)
      .where(this.scoped(replayId, gt(trades.seq, afterSeq), lte(trades.seq, throughSeq)))
      .orderBy(asc(trades.seq))
      .limit(limit);
  }
}
