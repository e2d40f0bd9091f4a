/**
 * @module modules/signals/history
 * /api/breakouts/history: every signal ever surfaced, newest first by
 * (detectedAt, id) with keyset cursors, each with its recorded state changes;
 * as JSON (the envelope), CSV or NDJSON (issue 31, modules/shared/representations).
 */
import type { ScansRepository } from '../../db/repositories/scans';
import { isDateTime } from '../../domain/formats';
import { csvLine } from '../../ledger/serialize';
import { envelopeLinks, keysetPage, readPage } from '../../pagination';
import { bulkMedia } from '../../plugins/media';
import { DATE_PARAM_RANGE } from '../shared/params';
import { ndjsonLines, rowsResponse, streamRows } from '../shared/representations';
import { HISTORY_CSV_COLUMNS, type HistoryQuery, type HistoryResponse, type HistoryRouteQuery } from './model';

/** A keyset position this endpoint hands out: a detectedAt within the date range and a signal id (an intraday one has a `/`: domain/signal-id). */
function isHistoryKey([at, id]: [string | number, string]): boolean {
  return typeof at === 'string' && isDateTime(at) && at.slice(0, 10) >= DATE_PARAM_RANGE.from && at.slice(0, 10) <= DATE_PARAM_RANGE.to && /^[A-Za-z0-9._:/-]{1,128}$/.test(id);
}

export async function signalHistory(scans: ScansRepository, query: HistoryQuery): Promise<HistoryResponse> {
  const request = readPage(query, isHistoryKey);
  const filter = { symbol: query.symbol, patternType: query.pattern, timeframe: query.timeframe };
  const { rows, total } = await scans.signalHistory(filter, request);
  const page = keysetPage(rows, request, (row) => [row.detectedAt.toISOString(), row.id], total);
  const events = await scans.eventsOf(page.items.map((r) => r.id));
  const bySignal = new Map<string, HistoryResponse['items'][number]['stateHistory']>();
  for (const e of events) {
    const list = bySignal.get(e.signalId) ?? [];
    list.push({ from: e.fromState, to: e.toState, price: e.price, at: e.at.toISOString(), recordedAt: e.recordedAt.toISOString(), runId: e.runId });
    bySignal.set(e.signalId, list);
  }
  const items = page.items.map((r) => ({
    id: r.id,
    symbol: r.symbol,
    timeframe: r.timeframe,
    patternFamily: r.patternFamily,
    patternType: r.patternType,
    direction: r.direction,
    trendRegime: r.trendRegime,
    breakoutState: r.state,
    triggerPrice: r.triggerPrice,
    target1: r.target1,
    stopLoss: Number.isFinite(r.stopLoss) ? r.stopLoss : null,
    finalScore: r.finalScore,
    confidence: r.confidence,
    scoreBand: r.scoreBand,
    reasons: r.reasons as string[],
    detectedAt: r.detectedAt.toISOString(),
    source: r.source,
    firstRunId: r.firstRunId,
    lastSeenRunId: r.lastSeenRunId,
    stateHistory: bySignal.get(r.id) ?? [],
  }));
  return {
    signals: items,
    filters: { symbol: query.symbol ?? null, pattern: query.pattern ?? null, timeframe: query.timeframe ?? null },
    items,
    pagination: page.pagination,
  };
}

type HistorySignal = HistoryResponse['items'][number];

function historyCsv(signals: readonly HistorySignal[]): string {
  let out = '';
  for (const s of signals) out += csvLine(HISTORY_CSV_COLUMNS.map((column) => (column === 'reasons' || column === 'stateHistory' ? JSON.stringify(s[column]) : s[column])));
  return out;
}

/**
 * The answer of GET /api/breakouts/history: the envelope as JSON (its `Link`
 * set by plugins/representation, as on every envelope), or the page's
 * signals as CSV or NDJSON with the same `Link`.
 */
export async function historyAnswer(scans: ScansRepository, query: HistoryRouteQuery, request: Request): Promise<HistoryResponse | Response> {
  // Negotiated first: a 406 costs no read.
  const media = bulkMedia(request.headers.get('accept'), query.format);
  const { format: _format, ...params } = query;
  const page = await signalHistory(scans, params);
  if (media === 'application/json') return page;
  const link = envelopeLinks(request.url, page.pagination);
  const body = media === 'text/csv' ? streamRows(page.items, historyCsv, csvLine(HISTORY_CSV_COLUMNS)) : streamRows(page.items, ndjsonLines);
  return rowsResponse(media, body, link ? { link } : {});
}
