/**
 * @module db/repositories/ledger-signals
 * The index a ledger page is read over (schema/ledger-signals): extended by
 * the appender in its own transaction (`extendIn`, from the signal records it
 * just wrote), and read by `page`: which signals a page of the ledger shows
 * and how many the filter matches, as of one head, without a count over the
 * chain or the trade book (issue 27).
 */
import { and, asc, count, desc, eq, getTableName, gt, gte, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import type { LedgerRecordsTable, LedgerSignalsTable } from '../schema';

/** A ledger page's filters: detection time (inclusive), pattern type, score band. */
export interface LedgerFilter {
  since?: Date;
  until?: Date;
  patternType?: string;
  scoreBand?: string;
}

/** The chain an index belongs to: its records, its index, whether it is kept per replay. */
export interface SignalsChain {
  name: 'live' | 'replay';
  records: LedgerRecordsTable;
  signals: LedgerSignalsTable;
}

type Tx = Pick<Db, 'execute'>;

export class LedgerSignalsRepository {
  constructor(
    private readonly db: Db,
    readonly chain: SignalsChain,
  ) {}

  /**
   * Indexes the signal records after `afterSeq` (the head before the append),
   * inside the appender's transaction and under its writer lock: each one's
   * ordinals continue from the last of its replay (pattern type, band) — an
   * index probe each — in chain order. A record with no pattern type or band
   * is numbered but matched by no filter (a filter always names a value).
   */
  async extendIn(tx: Tx, afterSeq: number): Promise<void> {
    const { records: r, signals: s } = this.chain;
    const perReplay = this.chain.name === 'replay';
    const last = (column: string, ...same: string[]) => {
      const keys = [...(perReplay ? ['replay_id'] : []), ...same].map((k) => `i.${k} = r.${k}`).join(' and ');
      return sql.raw(`coalesce((select max(i.${column}) from "${getTableName(s)}" i${keys ? ` where ${keys}` : ''}), 0)`);
    };
    const rank = (...by: string[]) => sql.raw(`row_number() over (partition by ${['r.replay_id', ...by.map((b) => `r.${b}`)].join(', ')} order by r.seq)`);
    await tx.execute(sql`
      insert into ${s} (seq, replay_id, detected_at, pattern_type, score_band, n, n_pattern, n_band, n_pattern_band)
      select r.seq, r.replay_id, r.detected_at, r.pattern_type, r.score_band,
        ${last('n')} + ${rank()},
        ${last('n_pattern', 'pattern_type')} + ${rank('pattern_type')},
        ${last('n_band', 'score_band')} + ${rank('score_band')},
        ${last('n_pattern_band', 'pattern_type', 'score_band')} + ${rank('pattern_type', 'score_band')}
      from ${r} r where r.seq > ${afterSeq} and r.kind = 'signal'`);
  }

  /**
   * The signals of one replay (or of the live chain) that `filter` matches,
   * with `seq ≤ throughSeq` (one head): how many, and the seqs of those from
   * `offset` (`limit` of them, in chain order). By pattern type and band it
   * is a range of one ordinal and the count its last, read from the top of
   * the ordinal's index down to the head; a date range is counted and paged
   * over the detection-time index (its cost follows the range, not the chain).
   */
  async page(replayId: string | undefined, filter: LedgerFilter, throughSeq: number, offset: number, limit: number): Promise<{ total: number; seqs: number[] }> {
    const s = this.chain.signals;
    const where = (...more: (SQL | undefined)[]) =>
      and(
        replayId === undefined ? undefined : eq(s.replayId, replayId),
        filter.patternType === undefined ? undefined : eq(s.patternType, filter.patternType),
        filter.scoreBand === undefined ? undefined : eq(s.scoreBand, filter.scoreBand),
        lte(s.seq, throughSeq),
        ...more,
      );
    if (filter.since !== undefined || filter.until !== undefined) {
      const dated = where(filter.since && gte(s.detectedAt, filter.since), filter.until && lte(s.detectedAt, filter.until), sql`${s.detectedAt} is not null`);
      const [[counted], rows] = await Promise.all([
        this.db.select({ n: count() }).from(s).where(dated),
        this.db.select({ seq: s.seq }).from(s).where(dated).orderBy(asc(s.seq)).limit(limit).offset(offset),
      ]);
      return { total: Number(counted?.n ?? 0), seqs: rows.map((row) => row.seq) };
    }
    const ordinal = filter.patternType === undefined ? (filter.scoreBand === undefined ? s.n : s.nBand) : filter.scoreBand === undefined ? s.nPattern : s.nPatternBand;
    const [[top], rows] = await Promise.all([
      this.db.select({ n: ordinal }).from(s).where(where()).orderBy(desc(ordinal)).limit(1),
      this.db
        .select({ seq: s.seq })
        .from(s)
        .where(where(gt(ordinal, offset), lte(ordinal, offset + limit)))
        .orderBy(asc(ordinal)),
    ]);
    return { total: top?.n ?? 0, seqs: rows.map((row) => row.seq) };
  }
}
