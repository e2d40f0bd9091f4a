/**
 * @module modules/exports/service
 * A user's exports: queue a job (background/exports makes the file in the
 * background), list them, and stream a done file to its owner only (another
 * user's export answers 404).
 */
import type { Principal } from '../../auth';
import type { StoredExport } from '../../db/repositories/exports';
import { timestampKey } from '../../db/repositories/keyset';
import { AppError } from '../../errors';
import { newId } from '../../ids';
import { keysetPage, readPage } from '../../pagination';
import type { Services } from '../../services';
import { notYours } from '../shared/account';
import type { CreateExportBody, ExportPage, ExportQuery, ExportSchema } from './model';

export type ExportDeps = Pick<Services, 'account'>;

const LEDGER_FILTERS = ['since', 'until', 'patternType', 'scoreBand'] as const;
const JOURNAL_FILTERS = ['symbol', 'tag'] as const;

function exportView(e: StoredExport): ExportSchema {
  const filters = Object.fromEntries(Object.entries(e.filters).filter((kv): kv is [string, string] => typeof kv[1] === 'string'));
  return {
    id: e.id,
    dataset: e.dataset,
    format: e.format,
    filters,
    status: e.status,
    rowCount: e.rowCount,
    sizeBytes: e.sizeBytes,
    error: e.error,
    createdAt: e.createdAt.toISOString(),
    startedAt: e.startedAt?.toISOString() ?? null,
    finishedAt: e.finishedAt?.toISOString() ?? null,
    expiresAt: e.expiresAt?.toISOString() ?? null,
    downloadUrl: e.status === 'done' ? `/api/exports/${e.id}/download` : null,
  };
}

export async function createExport(deps: ExportDeps, principal: Principal, body: CreateExportBody): Promise<ExportSchema> {
  const filters = body.filters ?? {};
  const allowed: readonly string[] = body.dataset === 'ledger' ? LEDGER_FILTERS : JOURNAL_FILTERS;
  const stray = Object.keys(filters).find((k) => !allowed.includes(k));
  if (stray) throw new AppError('invalid_body', `Body field 'filters.${stray}' does not apply to the ${body.dataset} dataset (it takes ${allowed.join(', ')})`);
  if (filters.since && filters.until && filters.since > filters.until) throw new AppError('invalid_body', `Body field 'filters.since' (${filters.since}) is after 'filters.until' (${filters.until})`);
  const job = await deps.account.exports.create({
    id: newId('exp'),
    userId: principal.userId,
    dataset: body.dataset,
    format: body.format ?? 'csv',
    filters: { ...filters, ...(filters.symbol ? { symbol: filters.symbol.toUpperCase() } : {}) },
    status: 'queued',
    rowCount: null,
    sizeBytes: null,
    error: null,
    createdAt: new Date(),
    startedAt: null,
    finishedAt: null,
    expiresAt: null,
  });
  void deps.account.exportJobs.kick();
  return exportView(job);
}

export async function listExports(deps: ExportDeps, principal: Principal, query: ExportQuery): Promise<ExportPage> {
  const request = readPage(query);
  const { rows, total } = await deps.account.exports.page(principal.userId, request);
  const page = keysetPage(rows, request, (r) => timestampKey(r.createdAt, r.id), total);
  return { items: page.items.map(exportView), pagination: page.pagination };
}

export async function getExport(deps: ExportDeps, principal: Principal, id: string): Promise<ExportSchema> {
  const job = await deps.account.exports.get(principal.userId, id);
  if (!job) throw notYours('export', id);
  return exportView(job);
}

const TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8' } as const;

/** A done export of the user's as a streamed response, chunk by chunk from the database. */
export async function downloadExport(deps: ExportDeps, principal: Principal, id: string): Promise<Response> {
  const { exports } = deps.account;
  const job = await exports.get(principal.userId, id);
  if (!job) throw notYours('export', id);
  if (job.status === 'expired') throw new AppError('gone', `Export ${id} expired at ${job.expiresAt?.toISOString()}; make a new one`);
  if (job.status === 'failed') throw new AppError('conflict', `Export ${id} failed: ${job.error}`);
  if (job.status !== 'done') throw new AppError('conflict', `Export ${id} is ${job.status}; download it once its status is done`, { 'retry-after': '2' });
  const encoder = new TextEncoder();
  let seq = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await exports.chunk(id, seq++);
      if (chunk === undefined) controller.close();
      else controller.enqueue(encoder.encode(chunk));
    },
  });
  return new Response(body, {
    headers: {
      'content-type': TYPES[job.format],
      'content-length': String(job.sizeBytes ?? 0),
      'content-disposition': `attachment; filename="breakline-${job.dataset}-${job.id}.${job.format}"`,
      'cache-control': 'private, no-store',
    },
  });
}
