/** @module modules/transparency — the Transparency tag: the public ledger, its rollups, scorecard and verification. */
import { Elysia } from 'elysia';
import { rateLimit, rateLimitOptions } from '../../plugins/rate-limit';
import type { Services } from '../../services';
import { jsonResponse, withErrors } from '../shared/params';
import { ledgerAnswer } from './bulk';
import { CheckpointsResponse, LedgerResponse, LedgerRouteQuery, MonthlyQuery, MonthlyResponse, ScorecardQuery, ScorecardResponse, TRANSPARENCY_DOCS, VerifyResponse } from './model';
import { computeAhead, keepLiveBook } from './ahead';
import { monthlyJson, scorecardJson } from './performance';
import { checkpoints, verification } from './service';

const CSV_HEADERS = {
  'content-type': 'text/csv; charset=utf-8',
  'cache-control': 'public, max-age=60',
  'content-disposition': 'attachment; filename="breakline-ledger.csv"',
};

export function transparencyModule(services: Services) {
  const { ledger } = services;
  // The replay's figures computed ahead by the server's background loop (after ready; tests start it by hand), and
  // the live ledger's trade book kept for a restart.
  services.figuresAhead.serve(async (stopping) => {
    await computeAhead(services, stopping);
    if (!stopping()) await keepLiveBook(services);
  });
  return new Elysia({ name: 'breakline/transparency' })
    .use(rateLimit(rateLimitOptions(services)))
    .get('/api/transparency/ledger', ({ query, request, set }) => ledgerAnswer(services, query, request, set.headers as Record<string, string>), {
      query: LedgerRouteQuery,
      response: withErrors(LedgerResponse, 400, 404, 406, 429),
      detail: TRANSPARENCY_DOCS.ledger,
    })
    .get(
      '/api/transparency/ledger.csv',
      async ({ request }) => {
        const csv = await services.ledgerCsv.open(request.headers.get('if-none-match'));
        return new Response(csv.stream, { status: csv.stream ? 200 : 304, headers: { ...CSV_HEADERS, etag: csv.etag } });
      },
      { costly: true, detail: TRANSPARENCY_DOCS.ledgerCsv },
    )
    .get('/api/transparency/monthly', async ({ query }) => jsonResponse(await monthlyJson(services, query)), {
      query: MonthlyQuery,
      response: withErrors(MonthlyResponse, 400, 404, 429),
      // Over a replay's chain (hundreds of thousands of records) a cold read tallies a book: costly (issue 27).
      costly: { query: 'source', equals: 'replay' },
      detail: TRANSPARENCY_DOCS.monthly,
    })
    .get('/api/scorecard', async ({ query }) => jsonResponse(await scorecardJson(services, query)), {
      query: ScorecardQuery,
      response: withErrors(ScorecardResponse, 400, 404, 429),
      costly: { query: 'source', equals: 'replay' },
      detail: TRANSPARENCY_DOCS.scorecard,
    })
    .get('/api/transparency/verify', () => verification({ live: services.ledgerVerifier, replay: services.replayVerifier }), {
      costly: true,
      response: withErrors(VerifyResponse, 429),
      detail: TRANSPARENCY_DOCS.verify,
    })
    .get('/api/transparency/checkpoints', () => checkpoints(ledger), {
      response: withErrors(CheckpointsResponse, 429),
      detail: TRANSPARENCY_DOCS.checkpoints,
    });
}
