/** @module modules/signals — the Signals tag: breakouts, their history, confluence, forecasts and the universe scan. */
import { Elysia } from 'elysia';
import { envelopeLinks } from '../../pagination';
import { rateLimit, rateLimitOptions } from '../../plugins/rate-limit';
import type { FastRoute } from '../../plugins/fast-path';
import type { Services } from '../../services';
import { jsonResponse, withErrors } from '../shared/params';
import { confluenceOf } from './confluence';
import { forecastOf } from './forecast';
import { historyAnswer } from './history';
import { BreakoutsPage, BreakoutsRouteQuery, ConfluenceQuery, ConfluenceResponse, ForecastQuery, ForecastResponse, HistoryResponse, HistoryRouteQuery, SIGNALS_DOCS, UniverseScanQuery, UniverseScanResponse } from './model';
import { breakoutsBody } from './service';
import { universeAnswer } from './universe';

export function signalsModule(services: Services) {
  return new Elysia({ name: 'breakline/signals' })
    .use(rateLimit(rateLimitOptions(services)))
    .get(
      '/api/breakouts',
      async ({ query, request, set }) => {
        const { text, pagination } = await breakoutsBody(services, query);
        const link = envelopeLinks(request.url, pagination);
        if (link) set.headers.link = link;
        return jsonResponse(text);
      },
      {
        costly: { query: 'asOf' },
        query: BreakoutsRouteQuery,
        response: withErrors(BreakoutsPage, 400, 404, 429, 500),
        detail: SIGNALS_DOCS.breakouts,
      },
    )
    .get('/api/breakouts/history', ({ query, request, set }) => historyAnswer(services.scans, query, request, set.headers as Record<string, string>), {
      query: HistoryRouteQuery,
      response: withErrors(HistoryResponse, 400, 406, 429),
      detail: SIGNALS_DOCS.history,
    })
    .get('/api/confluence', ({ query }) => confluenceOf(services, query), {
      query: ConfluenceQuery,
      response: withErrors(ConfluenceResponse, 400, 404, 429, 500),
      detail: SIGNALS_DOCS.confluence,
    })
    .get('/api/forecast', ({ query }) => forecastOf(services, query), {
      query: ForecastQuery,
      response: withErrors(ForecastResponse, 400, 404, 429, 500),
      detail: SIGNALS_DOCS.forecast,
    })
    .get('/api/universe/scan', ({ query }) => universeAnswer(services, query), {
      costly: true,
      query: UniverseScanQuery,
      response: withErrors(UniverseScanResponse, 400, 429, 500),
      detail: SIGNALS_DOCS.universe,
    });
}

/**
 * /api/breakouts on the fast path (plugins/fast-path), for the answers of the
 * latest persisted run: without `asOf` (a costly replay) and without paging
 * parameters (numbers, coerced by Elysia), which go the ordinary way.
 */
export function signalsFastRoutes(services: Services): FastRoute<never>[] {
  const breakouts: FastRoute<BreakoutsRouteQuery, string> = {
    path: '/api/breakouts',
    keys: ['symbols', 'timeframe', 'view'],
    // The key its body is held under with the run, made once per query string.
    prepare: (query) => JSON.stringify(query),
    answer: async (query, _apiVersion, key) => ({ ...(await breakoutsBody(services, query, key)), held: true }),
  };
  return [breakouts] as FastRoute<never>[];
}
