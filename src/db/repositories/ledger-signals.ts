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
   * ordinals continue from the last of its replay (pattern type, band), in
   * chain order. The last ordinals are read once per group the append holds
   * (an index probe each), not once per record: per record, four probes
   * doubled the CPU of a replay's appends (bench/ledger-signals). The
   * appended records are read by seq first (a materialised step), so the
   * planner cannot reach for the signals' partial index, which grows with the
   * chain. A record with no pattern type or band is numbered but matched by
   * no filter (a filter always names a value).
   */
  async extendIn(tx: Tx, afterSeq: number): Promise<void> {
    const { records: r, signals: s } = this.chain;
    const table = `"${getTableName(s)}"`;
    const perReplay = this.chain.name === 'replay';
    // For each ordinal: the groups of the append and the last ordinal of each, joined back by its keys.
    const groups = (column: string, alias: string, ...keys: string[]) => {
      const all = [...(perReplay ? ['replay_id'] : []), ...keys];
      const probe = all.length ? ` where ${all.map((k) => `i.${k} = g.${k}`).join(' and ')}` : '';
      const list = all.map((k) => `g.${k}`).join(', ');
      return sql.raw(
        `left join (select ${list ? `${list}, ` : ''}coalesce((select max(i.${column}) from ${table} i${probe}), 0) as m from (select distinct ${all.length ? all.join(', ') : '1 as one'} from added) g) ${alias}` +
          ` on ${all.length ? all.map((k) => `${alias}.${k} is not distinct from a.${k}`).join(' and ') : 'true'}`,
      );
    };
    const rank = (...by: string[]) => sql.raw(`row_number() over (partition by ${['a.replay_id', ...by.map((b) => `a.${b}`)].join(', ')} order by a.seq)`);
    await tx.execute(sql`
      with recent as materialized (select seq, kind, replay_id, detected_at, pattern_type, score_band from ${r} where seq > ${afterSeq}),
        added as (select * from recent where kind = 'signal')
      insert into ${s} (seq, replay_id, detected_at, pattern_type, score_band, n, n_pattern, n_band, n_pattern_band)
      select a.seq, a.replay_id, a.detected_at, a.pattern_type, a.score_band,
        g0.m + ${rank()}, g1.m + ${rank('pattern_type')}, g2.m + ${rank('score_band')}, g3.m + ${rank('pattern_type', 'score_band')}
      from added a ${groups('n', 'g0')} ${groups('n_pattern', 'g1', 'pattern_type')} ${groups('n_band', 'g2', 'score_band')} ${groups('n_pattern_band', 'g3', 'pattern_type', 'score_band')}`);
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
