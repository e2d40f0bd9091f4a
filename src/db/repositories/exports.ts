/**
 * @module db/repositories/exports
 * Export jobs and their content. A queued job is claimed by one instance
 * (`FOR UPDATE SKIP LOCKED`); a job left running by an instance that died is
 * queued again after a while; content is written in chunks and streamed back
 * in order; expiring a job deletes its content and keeps the row.
 */
import { Type } from '@sinclair/typebox';
import { and, count, eq, inArray, lte, sql } from 'drizzle-orm';
import { storedAs } from '../../domain/check';
import { literalUnion } from '../../domain/signal';
import type { PageRequest } from '../../pagination';
import type { Db } from '../client';
import { exportChunks, exports, type ExportRow } from '../schema';
import { beyondCursor, pageOffset, pageOrder } from './keyset';
import { rowsOf } from './rows';

export const EXPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
export const EXPORT_DATASETS = ['ledger', 'journal'] as const;
export type ExportDataset = (typeof EXPORT_DATASETS)[number];
export const EXPORT_FORMATS = ['csv', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The ledger endpoint's filters as an export keeps them (dates as asked, `YYYY-MM-DD`). */
export const ExportFiltersSchema = Type.Object({
  since: Type.Optional(Type.String()),
  until: Type.Optional(Type.String()),
  patternType: Type.Optional(Type.String()),
  scoreBand: Type.Optional(Type.String()),
  symbol: Type.Optional(Type.String()),
  tag: Type.Optional(Type.String()),
});
export type ExportFilters = (typeof ExportFiltersSchema)['static'];

export interface StoredExport extends Omit<ExportRow, 'status' | 'dataset' | 'format' | 'filters'> {
  status: ExportStatus;
  dataset: ExportDataset;
  format: ExportFormat;
  filters: ExportFilters;
}

const statusOf = storedAs(literalUnion(EXPORT_STATUSES));
const datasetOf = storedAs(literalUnion(EXPORT_DATASETS));
const formatOf = storedAs(literalUnion(EXPORT_FORMATS));
const filtersOf = storedAs(ExportFiltersSchema);

function storedExport(row: ExportRow): StoredExport {
  const what = `export ${row.id}`;
  return {
    ...row,
    status: statusOf(row.status, `${what} status`),
    dataset: datasetOf(row.dataset, `${what} dataset`),
    format: formatOf(row.format, `${what} format`),
    filters: filtersOf(row.filters, `${what} filters`),
  };
}

const claimedRow = storedAs(Type.Object({ id: Type.String() }));

export class ExportsRepository {
  constructor(private readonly db: Db) {}

  async create(row: ExportRow): Promise<StoredExport> {
    const [inserted] = await this.db.insert(exports).values(row).returning();
    return storedExport(inserted!);
  }

  async page(userId: string, page: PageRequest): Promise<{ rows: StoredExport[]; total: number }> {
    const owner = eq(exports.userId, userId);
    const [rows, totals] = await Promise.all([
      this.db
        .select()
        .from(exports)
        .where(and(owner, beyondCursor(exports.createdAt, exports.id, page)))
        .orderBy(...pageOrder(exports.createdAt, exports.id, page.order))
        .limit(page.limit + 1)
        .offset(pageOffset(page)),
      this.db.select({ n: count() }).from(exports).where(owner),
    ]);
    return { rows: rows.map(storedExport), total: Number(totals[0]?.n ?? 0) };
  }

  async get(userId: string, id: string): Promise<StoredExport | undefined> {
    const [row] = await this.db.select().from(exports).where(and(eq(exports.id, id), eq(exports.userId, userId))).limit(1);
    return row && storedExport(row);
  }

  /** Takes the oldest queued job, marking it running; undefined when none is queued. */
  async claimQueued(now: Date): Promise<StoredExport | undefined> {
    const result = await this.db.execute(sql`
      update ${exports} set status = 'running', started_at = ${now.toISOString()}::timestamptz
      where id = (select id from ${exports} where status = 'queued' order by created_at, id limit 1 for update skip locked)
      returning id`);
    const [claimed] = rowsOf(result).map((r) => claimedRow(r, 'claimed export').id);
    if (!claimed) return undefined;
    const [row] = await this.db.select().from(exports).where(eq(exports.id, claimed)).limit(1);
    return row && storedExport(row);
  }

  /** Queues again jobs that have been running since before `startedBefore` (their instance stopped); their partial content is dropped. */
  async requeueStale(startedBefore: Date): Promise<number> {
    const stale = await this.db.select({ id: exports.id }).from(exports).where(and(eq(exports.status, 'running'), lte(exports.startedAt, startedBefore)));
    await this.requeue(stale.map((r) => r.id));
    return stale.length;
  }

  /** Queues again the running jobs `ids` (their making was cut short); their partial content is dropped. */
  async requeue(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.transaction(async (tx) => {
      await tx.delete(exportChunks).where(inArray(exportChunks.exportId, ids));
      await tx.update(exports).set({ status: 'queued', startedAt: null }).where(and(inArray(exports.id, ids), eq(exports.status, 'running')));
    });
  }

  async appendChunk(exportId: string, seq: number, content: string): Promise<void> {
    await this.db.insert(exportChunks).values({ exportId, seq, content });
  }

  /** The content's chunk `seq`, or undefined past the last. */
  async chunk(exportId: string, seq: number): Promise<string | undefined> {
    const [row] = await this.db.select({ content: exportChunks.content }).from(exportChunks).where(and(eq(exportChunks.exportId, exportId), eq(exportChunks.seq, seq))).limit(1);
    return row?.content;
  }

  async finish(id: string, outcome: { status: 'done'; rowCount: number; sizeBytes: number; finishedAt: Date; expiresAt: Date } | { status: 'failed'; error: string; finishedAt: Date }): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (outcome.status === 'failed') await tx.delete(exportChunks).where(eq(exportChunks.exportId, id));
      await tx.update(exports).set(outcome).where(eq(exports.id, id));
    });
  }

  /** Done exports whose time is up become `expired` and lose their content; answers their ids. */
  async expire(now: Date): Promise<string[]> {
    return this.db.transaction(async (tx) => {
      const due = await tx.select({ id: exports.id }).from(exports).where(and(eq(exports.status, 'done'), lte(exports.expiresAt, now)));
      if (due.length === 0) return [];
      const ids = due.map((r) => r.id);
      await tx.delete(exportChunks).where(inArray(exportChunks.exportId, ids));
      await tx.update(exports).set({ status: 'expired' }).where(inArray(exports.id, ids));
      return ids;
    });
  }

  /** Whether any job is queued (the worker's cheap check). */
  async anyQueued(): Promise<boolean> {
    const [row] = await this.db.select({ id: exports.id }).from(exports).where(eq(exports.status, 'queued')).limit(1);
    return row !== undefined;
  }

  /** Chunks stored for an export (tests check expired content is gone). */
  async chunkCount(exportId: string): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(exportChunks).where(eq(exportChunks.exportId, exportId));
    return Number(row?.n ?? 0);
  }
}
