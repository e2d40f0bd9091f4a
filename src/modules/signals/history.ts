/**
 * @module modules/signals/history
 * /api/breakouts/history: every signal ever surfaced, newest first by
 * (detectedAt, id) with keyset cursors, each with its recorded state changes;
 * as JSON (the envelope), CSV or NDJSON (issue 31, modules/shared/representations).
 *
 * The JSON page is read and serialised with the event loop free between its
 * steps, and identical requests at once share one read and one body (issue
 * 27): PGlite runs each query and decodes its rows in the server's thread, and
 * Elysia's response check and mirror over a page of 200 signals (twice:
 * `signals` and `items`), per caller, held a `/livez` probe 868 ms at load 13
 * (five cold callers, bench/stall).
 */
import { yieldToEventLoop } from '../../db/client';
import type { ScansRepository } from '../../db/repositories/scans';
import { isDateTime } from '../../domain/formats';
import { csvLine } from '../../ledger/serialize';
import { envelopeLinks, keysetPage, readPage, type PageMeta } from '../../pagination';
import { bulkMedia } from '../../plugins/media';
import { inFlight } from '../../in-flight';
import { DATE_PARAM_RANGE, jsonResponse } from '../shared/params';
import { ndjsonLines, rowsResponse, streamRows } from '../shared/representations';
import { slicedJson } from '../shared/sliced-json';
import { HISTORY_CSV_COLUMNS, HistoryResponse, HistorySignal, type HistoryQuery, type HistoryRouteQuery } from './model';

/** The page serialised through the response schema's mirrors, 50 signals a turn (modules/shared/sliced-json): the bytes Elysia sent. */
const historyJson = slicedJson<HistoryResponse, HistoryResponse['items'][number]>(HistoryResponse, HistorySignal, ['signals', 'items']);

/** JSON pages being read, per repository and query: identical requests at once share one read and one body. */
const pagesInFlight = inFlight<ScansRepository, HistoryPageJson>();

/** A JSON page of the history serialised, with its pagination (for its `Link`). */
interface HistoryPageJson {
  text: string;
  pagination: PageMeta;
}

/** A keyset position this endpoint hands out: a detectedAt within the date range and a signal id (an intraday one has a `/`: domain/signal-id). */
function isHistoryKey([at, id]: [string | number, string]): boolean {
  return typeof at === 'string' && isDateTime(at) && at.slice(0, 10) >= DATE_PARAM_RANGE.from && at.slice(0, 10) <= DATE_PARAM_RANGE.to && /^[A-Za-z0-9._:/-]{1,128}$/.test(id);
}

export async function signalHistory(scans: ScansRepository, query: HistoryQuery): Promise<HistoryResponse> {
  const request = readPage(query, isHistoryKey);
  const filter = { symbol: query.symbol, patternType: query.pattern, timeframe: query.timeframe };
  const { rows, total } = await scans.signalHistory(filter, request);
  // A turn of the loop between a query's rows and the next query: PGlite settles each in a microtask.
  await yieldToEventLoop();
  const page = keysetPage(rows, request, (row) => [row.detectedAt.toISOString(), row.id], total);
  const events = await scans.eventsOf(page.items.map((r) => r.id));
  await yieldToEventLoop();
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

/** The JSON page as the route sends it: `signals` and `items` (the same list) serialised once, a slice at a time. */
async function serializeHistory(page: HistoryResponse): Promise<HistoryPageJson> {
  return { text: await historyJson(page, page.items), pagination: page.pagination };
}

/** The JSON page of `query`, read once however many ask for it at once. */
function historyPageJson(scans: ScansRepository, query: HistoryQuery): Promise<HistoryPageJson> {
  const key = JSON.stringify([query.symbol, query.pattern, query.timeframe, query.limit, query.offset, query.cursor, query.order]);
  return pagesInFlight(scans, key, () => signalHistory(scans, query).then(serializeHistory));
}

/**
 * The answer of GET /api/breakouts/history: the envelope as JSON (held, with
 * its `Link` set in `headers`, the route's response headers, as
 * plugins/representation sets it on an envelope object), or the page's
 * signals as CSV or NDJSON with the same `Link`.
 */
export async function historyAnswer(scans: ScansRepository, query: HistoryRouteQuery, request: Request, headers: Record<string, string | number>): Promise<Response> {
  // Negotiated first: a 406 costs no read.
  const media = bulkMedia(request.headers.get('accept'), query.format);
  const { format: _format, ...params } = query;
  if (media === 'application/json') {
    const { text, pagination } = await historyPageJson(scans, params);
    const link = envelopeLinks(request.url, pagination);
    if (link) headers.link = link;
    return jsonResponse(text);
  }
  const page = await signalHistory(scans, params);
  const link = envelopeLinks(request.url, page.pagination);
  const body = media === 'text/csv' ? streamRows(page.items, historyCsv, csvLine(HISTORY_CSV_COLUMNS)) : streamRows(page.items, ndjsonLines);
  return rowsResponse(media, body, link ? { link } : {});
}
