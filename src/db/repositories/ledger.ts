/**
 * @module db/repositories/ledger
 * Appends to a hash-chained ledger and reads it back: the live chain, or the
 * replay chain (DESIGN §4: replays never mix with live records), the same code
 * over tables of the same shape. Appends take a transaction-scoped advisory
 * lock (one key per chain), so a chain has one writer at a time across every
 * instance sharing the database; a signal (and its outcome) is written once —
 * a duplicate is skipped under the lock, and unique indexes back that up.
 */
import { and, asc, count, desc, eq, gt, gte, inArray, lte, max, sql, type SQL } from 'drizzle-orm';
import { chainHash, GENESIS_HASH } from '../../ledger/chain';
import type { Db } from '../client';
import {
  ledgerCheckpoints,
  ledgerRecords,
  ledgerFacts,
  replayLedgerCheckpoints,
  replayLedgerRecords,
  replayLedgerFacts,
  ledgerSignals,
  replayLedgerSignals,
  type LedgerCheckpointRow,
  type LedgerCheckpointsTable,
  type LedgerRecordRow,
  type LedgerRecordsTable,
  type LedgerFactsTable,
  type LedgerSignalsTable,
} from '../schema';
import { LedgerFactsRepository, type AppliedRecord } from './ledger-facts';
import { bodyText, entryText, rawJsonPair, type EntryText, type LedgerEntry, type LedgerKind } from './ledger-text';
import { LedgerFeed, type AppendedSegment } from './ledger-feed';
import { LedgerFiguresRepository } from './ledger-figures';
import { LedgerSignalsRepository, type LedgerFilter } from './ledger-signals';

/** A hash chain: its tables (records, checkpoints, the facts and the signal index kept beside it) and its writer's advisory-lock key. */
export interface LedgerChain {
  name: 'live' | 'replay';
  records: LedgerRecordsTable;
  checkpoints: LedgerCheckpointsTable;
  facts: LedgerFactsTable;
  signals: LedgerSignalsTable;
  lockKey: number;
}

/** The public ledger of live signals (lock "LDGR"). */
export const LIVE_CHAIN: LedgerChain = { name: 'live', records: ledgerRecords, checkpoints: ledgerCheckpoints, facts: ledgerFacts, signals: ledgerSignals, lockKey: 0x4c444752 };
/** The replay ledger (lock "RPLY"). */
export const REPLAY_CHAIN: LedgerChain = { name: 'replay', records: replayLedgerRecords, checkpoints: replayLedgerCheckpoints, facts: replayLedgerFacts, signals: replayLedgerSignals, lockKey: 0x52504c59 };

export type { LedgerEntry, LedgerKind } from './ledger-text';

/** The hashed body of a record. */
export interface LedgerBody {
  v: 1;
  seq: number;
  kind: LedgerKind;
  signalId: string;
  recordedAt: string;
  data: Record<string, unknown>;
}

/** Anything with drizzle's query API: the database or a transaction. */
type Tx = Pick<Db, 'select' | 'insert' | 'execute'>;

export type { LedgerFilter } from './ledger-signals';

/** A record as the chain's verification reads it. */
export type ChainRecord = Pick<LedgerRecordRow, 'seq' | 'kind' | 'signalId' | 'body' | 'prevHash' | 'hash' | 'replayId'>;

/** Records per INSERT statement. */
const INSERT_CHUNK = 2000;

/** `rows[from, to)` as the insert's JSON parameter, each body as its own JSON (`rawJsonPair`); `at` is their recorded time. */
function recordsJson(rows: readonly LedgerRecordRow[], from: number, to: number, at: string): string {
  const recordedAt = JSON.stringify(at);
  let out = '[';
  for (let i = from; i < to; i++) {
    const r = rows[i]!;
    const body = rawJsonPair(r.body);
    out +=
      `${i > from ? ',' : ''}{"seq":${r.seq},"kind":${JSON.stringify(r.kind)},"signal_id":${JSON.stringify(r.signalId)},"recorded_at":${recordedAt},` +
      `"body":${body.raw},"body_text":${body.quoted},"prev_hash":"${r.prevHash}","hash":"${r.hash}","pattern_type":${JSON.stringify(r.patternType)},` +
      `"score_band":${JSON.stringify(r.scoreBand)},"final_score":${JSON.stringify(r.finalScore)},"detected_at":${JSON.stringify(r.detectedAt?.toISOString() ?? null)},"replay_id":${JSON.stringify(r.replayId)}}`;
  }
  return `${out}]`;
}

export class LedgerRepository {
  private readonly records: LedgerRecordsTable;
  private readonly checkpointTable: LedgerCheckpointsTable;
  /** The facts kept beside the chain (every append writes them in its transaction). */
  readonly facts: LedgerFactsRepository;
  /** The figures kept per head of this chain (of this repository's replay, when it has one). */
  readonly figures: LedgerFiguresRepository;
  /** The signal index a ledger page is read over (every append extends it in its transaction). */
  readonly signals: LedgerSignalsRepository;
  /** Committed appends, told to the chain's trade books (one feed per chain, shared by its replays' scopes). */
  readonly feed: LedgerFeed;

  /**
   * @param chain which hash chain (default the live ledger)
   * @param replayId on the replay chain: the replay whose records this reads and
   *   appends (a signal is once per replay there); head, pages and checkpoints
   *   always cover the whole chain
   */
  constructor(
    private readonly db: Db,
    readonly chain: LedgerChain = LIVE_CHAIN,
    readonly replayId?: string,
    facts?: LedgerFactsRepository,
    feed?: LedgerFeed,
  ) {
    this.feed = feed ?? new LedgerFeed();
    this.records = chain.records;
    this.checkpointTable = chain.checkpoints;
    this.facts = facts ?? new LedgerFactsRepository(db, chain);
    this.figures = new LedgerFiguresRepository(db, chain.name, replayId ?? '');
    this.signals = new LedgerSignalsRepository(db, chain);
  }

  /** The same chain, scoped to one replay. */
  forReplay(replayId: string): LedgerRepository {
    return new LedgerRepository(this.db, this.chain, replayId, this.facts, this.feed);
  }

  /** `where` within this repository's replay, when it has one. */
  private scoped(...conditions: (SQL | undefined)[]): SQL | undefined {
    return and(...conditions, this.replayId === undefined ? undefined : eq(this.records.replayId, this.replayId));
  }

  /** Appends in its own transaction, and tells the feed once it is committed. Resolves to the records written (duplicates skipped). */
  async append(entries: LedgerEntry[]): Promise<LedgerRecordRow[]> {
    const segments: AppendedSegment[] = [];
    const rows = await this.db.transaction((tx) => this.appendIn(tx, entries, segments));
    this.tell(segments);
    return rows;
  }

  /**
   * Appends inside the caller's transaction (atomic with whatever else it
   * writes); with `segments`, adds what was appended there, for the caller to
   * `tell` once its transaction has committed.
   */
  appendIn(tx: Tx, entries: LedgerEntry[], segments?: AppendedSegment[]): Promise<LedgerRecordRow[]> {
    return this.appendTextsIn(
      tx,
      entries.map((e) => entryText(e, this.chain.name)),
      segments,
    );
  }

  /** Tells the chain's feed what a committed transaction appended (ledger-feed). */
  tell(segments: readonly AppendedSegment[]): void {
    for (const segment of segments) this.feed.tell(segment);
  }

  /**
   * Appends entries whose data is canonical JSON already (ledger-text; the
   * replay's workers make it) inside the caller's transaction: the same rows,
   * bodies and hashes as `appendIn` of the same data (and `segments` as there).
   */
  async appendTextsIn(tx: Tx, entries: readonly EntryText[], segments?: AppendedSegment[]): Promise<LedgerRecordRow[]> {
    if (entries.length === 0) return [];
    await tx.execute(sql`select pg_advisory_xact_lock(${this.chain.lockKey})`);
    const once = entries.filter((e) => e.kind !== 'event').map((e) => e.signalId);
    const existing = new Set<string>();
    if (once.length) {
      // One query per kind, each the exact predicate of its unique partial index (a signal is written once, and so
      // is its outcome): an index lookup per id. (kind in (…) matched neither index, and on a replay chain the
      // planner read the whole replay's records index instead: seconds at 800k records.) One JSON parameter
      // rather than one bind parameter per id (see the insert below).
      const ids = sql`array(select json_array_elements_text(${JSON.stringify(once)}::json))`;
      for (const kind of ['signal', 'outcome'] as const) {
        const rows = await tx
          .select({ signalId: this.records.signalId })
          .from(this.records)
          .where(this.scoped(eq(this.records.kind, kind), sql`${this.records.signalId} = any(${ids})`));
        for (const row of rows) existing.add(`${kind}:${row.signalId}`);
      }
    }
    const [head] = await tx.select({ seq: this.records.seq, hash: this.records.hash }).from(this.records).orderBy(desc(this.records.seq)).limit(1);
    let seq = head?.seq ?? 0;
    let prevHash = head?.hash ?? GENESIS_HASH;
    const recordedAt = new Date();
    const at = recordedAt.toISOString();
    const rows: LedgerRecordRow[] = [];
    const applied: AppliedRecord[] = [];
    for (const entry of entries) {
      const key = `${entry.kind}:${entry.signalId}`;
      if (entry.kind !== 'event') {
        if (existing.has(key)) continue;
        existing.add(key);
      }
      seq++;
      const text = bodyText(seq, entry.kind, entry.signalId, at, entry.data);
      const hash = chainHash(prevHash, text);
      const row: LedgerRecordRow = {
        seq,
        kind: entry.kind,
        signalId: entry.signalId,
        recordedAt,
        body: text,
        prevHash,
        hash,
        patternType: entry.patternType,
        scoreBand: entry.scoreBand,
        finalScore: entry.finalScore,
        detectedAt: entry.detectedAt === null ? null : new Date(entry.detectedAt),
        replayId: entry.replayId ?? this.replayId ?? null,
      };
      rows.push(row);
      if (entry.facts !== null) applied.push({ row, facts: entry.facts });
      prevHash = hash;
    }
    // One JSON parameter per chunk instead of 11 bind parameters a row: the
    // server parses one statement and one value (3× faster than a VALUES list
    // on PostgreSQL at 1,000 rows; bench/ledger). Each body goes in as the JSON
    // it is (ledger-text `rawJsonPair`), not escaped into a string a second time.
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await tx.execute(sql`
        insert into ${this.records} (seq, kind, signal_id, recorded_at, body, prev_hash, hash, pattern_type, score_band, final_score, detected_at, replay_id)
        select seq, kind, signal_id, recorded_at, coalesce(body_text, body::text), prev_hash, hash, pattern_type, score_band, final_score, detected_at, replay_id
        from json_to_recordset(${recordsJson(rows, i, Math.min(rows.length, i + INSERT_CHUNK), at)}::json) as r(seq bigint, kind text, signal_id text, recorded_at timestamptz, body json, body_text text, prev_hash text, hash text, pattern_type text, score_band text, final_score real, detected_at timestamptz, replay_id text)`);
    }
    await this.facts.applyIn(tx, applied);
    if (rows.length > 0) await this.signals.extendIn(tx, head?.seq ?? 0);
    const last = rows.at(-1);
    if (segments && last) {
      segments.push({ replayId: this.replayId, from: { seq: head?.seq ?? 0, hash: head?.hash ?? GENESIS_HASH }, to: { seq: last.seq, hash: last.hash }, records: applied, opens: false });
    }
    return rows;
  }

  /** Records with `seq > afterSeq`, in order, with what the verifier reads (no time columns: parsing them cost more than the rest). */
  page(afterSeq: number, limit: number): Promise<ChainRecord[]> {
    const r = this.records;
    return this.db
      .select({ seq: r.seq, kind: r.kind, signalId: r.signalId, body: r.body, prevHash: r.prevHash, hash: r.hash, replayId: r.replayId })
      .from(r)
      .where(gt(r.seq, afterSeq))
      .orderBy(asc(r.seq))
      .limit(limit);
  }

  /**
   * The last record's seq and hash, and the records in the chain: seqs run
   * 1, 2, … without a gap (the appender numbers them; verification checks it),
   * so the count is the head's seq — one index read, where counting the rows
   * of a replay chain of 800k records held the server's thread for seconds.
   */
  async head(): Promise<{ seq: number; hash: string; count: number }> {
    const [row] = await this.db.select({ seq: this.records.seq, hash: this.records.hash }).from(this.records).orderBy(desc(this.records.seq)).limit(1);
    return { seq: row?.seq ?? 0, hash: row?.hash ?? GENESIS_HASH, count: row?.seq ?? 0 };
  }

  /** Stores a checkpoint of the current head (no-op when the head has one already). */
  async checkpoint(): Promise<LedgerCheckpointRow | undefined> {
    const head = await this.head();
    if (head.seq === 0) return undefined;
    const row = { seq: head.seq, headHash: head.hash, count: head.count, createdAt: new Date() };
    const inserted = await this.db.insert(this.checkpointTable).values(row).onConflictDoNothing().returning();
    return inserted[0];
  }

  /** The hash of each record at the given seqs (for checking checkpoints inside an already verified prefix). */
  async hashesAt(seqs: number[]): Promise<Map<number, string>> {
    if (seqs.length === 0) return new Map();
    const rows = await this.db.select({ seq: this.records.seq, hash: this.records.hash }).from(this.records).where(inArray(this.records.seq, seqs));
    return new Map(rows.map((r) => [r.seq, r.hash]));
  }

  /** The head's seq and the last published checkpoint's seq (metrics: head and lag). */
  async headAndCheckpoint(): Promise<{ headSeq: number; checkpointSeq: number }> {
    const [[head], [checkpoint]] = await Promise.all([
      this.db.select({ seq: max(ledgerRecords.seq) }).from(ledgerRecords),
      this.db.select({ seq: max(ledgerCheckpoints.seq) }).from(ledgerCheckpoints),
    ]);
    return { headSeq: Number(head?.seq ?? 0), checkpointSeq: Number(checkpoint?.seq ?? 0) };
  }

  checkpoints(): Promise<LedgerCheckpointRow[]> {
    return this.db.select().from(this.checkpointTable).orderBy(asc(this.checkpointTable.seq));
  }

  /** Signal records matching the filter, oldest first, with the total. */
  async signalRecords(filter: LedgerFilter, limit: number, offset: number): Promise<{ rows: LedgerRecordRow[]; total: number }> {
    const conditions: SQL[] = [eq(this.records.kind, 'signal')];
    if (filter.since) conditions.push(gte(this.records.detectedAt, filter.since));
    if (filter.until) conditions.push(lte(this.records.detectedAt, filter.until));
    if (filter.patternType) conditions.push(eq(this.records.patternType, filter.patternType));
    if (filter.scoreBand) conditions.push(eq(this.records.scoreBand, filter.scoreBand));
    const where = this.scoped(...conditions);
    const [rows, totals] = await Promise.all([
      this.db.select().from(this.records).where(where).orderBy(asc(this.records.seq)).limit(limit).offset(offset),
      this.db.select({ n: count() }).from(this.records).where(where),
    ]);
    return { rows, total: Number(totals[0]?.n ?? 0) };
  }

  /** The records at `seqs`, in chain order (a page located by the trade book: a read by primary key). */
  recordsAt(seqs: number[]): Promise<LedgerRecordRow[]> {
    if (seqs.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(this.records)
      .where(sql`${this.records.seq} = any(array(select json_array_elements_text(${JSON.stringify(seqs)}::json)::bigint))`)
      .orderBy(asc(this.records.seq));
  }

  /** Signal records with `afterSeq < seq ≤ throughSeq`, in chain order: keyset pages of a read consistent with one head. */
  signalPage(afterSeq: number, throughSeq: number, limit: number): Promise<LedgerRecordRow[]> {
    return this.db
      .select()
      .from(this.records)
      .where(this.scoped(eq(this.records.kind, 'signal'), gt(this.records.seq, afterSeq), lte(this.records.seq, throughSeq)))
      .orderBy(asc(this.records.seq))
      .limit(limit);
  }

  /**
   * Event and outcome records of the given signals, in chain order (up to `throughSeq` when given). The signals'
   * records are located by their (signal, seq) index in a subquery of their seqs: the embedded database gathers
   * no statistics, and given the replay and a seq bound beside the signal ids its planner walked the replay's
   * whole (replay, seq) index instead — 1.5 s for 50 signals of a boot replay's 478k records, on the server's
   * thread, for each slice of a ledger page (17 ms this way).
   */
  followUps(signalIds: string[], throughSeq?: number): Promise<LedgerRecordRow[]> {
    if (signalIds.length === 0) return Promise.resolve([]);
    const r = this.records;
    return this.db
      .select()
      .from(r)
      .where(
        this.scoped(
          sql`${r.seq} = any(array(select ${r.seq} from ${r} where ${r.signalId} = any(array(select json_array_elements_text(${JSON.stringify(signalIds)}::json)))))`,
          inArray(this.records.kind, ['event', 'outcome']),
          throughSeq === undefined ? undefined : lte(this.records.seq, throughSeq),
        ),
      )
      .orderBy(asc(this.records.seq));
  }

  /** Signal records that have no outcome record yet. */
  unresolved(limit = 5000): Promise<LedgerRecordRow[]> {
    const sameReplay = this.replayId === undefined ? sql`` : sql` and o.replay_id = ${this.replayId}`;
    return this.db
      .select()
      .from(this.records)
      .where(
        this.scoped(
          eq(this.records.kind, 'signal'),
          sql`not exists (select 1 from ${this.records} o where o.kind = 'outcome' and o.signal_id = ${this.records.signalId}${sameReplay})`,
        ),
      )
      .orderBy(asc(this.records.seq))
      .limit(limit);
  }
}
