/** @module modules/backtest — the Backtest tag: GET/POST /api/backtest/walk-forward and GET /api/backtest/jobs/:id, session required. */
import { Elysia } from 'elysia';
import { auth } from '../../plugins/auth';
import { bodyLimit } from '../../plugins/body-limit';
import type { Services } from '../../services';
import { withErrors } from '../shared/params';
import { BACKTEST_DOCS, BacktestJob, BODY_LIMIT_BYTES, JobParams, WalkForwardBody, WalkForwardQuery, WalkForwardResponse } from './model';
import { backtestJob, walkForward, type WalkForwardAnswer } from './service';

const PATH = '/api/backtest/walk-forward';

/** The query parameters the request really carried (a defaulted one is absent). */
const givenIn = (request: Request) => new Set(new URL(request.url).searchParams.keys());

export function backtestModule(services: Services) {
  const { 200: job, ...jobErrors } = withErrors(BacktestJob, 400, 401, 403, 404, 413, 429, 500);
  const answer = (set: { status?: number | string; headers: Record<string, unknown> }, out: WalkForwardAnswer) => {
    if (out.kind === 'result') return out.body;
    set.status = 202;
    set.headers.location = `/api/backtest/jobs/${out.job.id}`;
    return out.job;
  };
  return new Elysia({ name: 'breakline/backtest' })
    .use(bodyLimit)
    .use(auth(services.auth.authenticator))
    .get(PATH, async ({ principal, query, request, set }) => answer(set, await walkForward(services, principal, { query, given: givenIn(request) }, 'GET')), {
      auth: 'GET /api/backtest/walk-forward',
      query: WalkForwardQuery,
      response: withErrors(WalkForwardResponse, 400, 401, 403, 404, 413, 429, 500),
      detail: { ...BACKTEST_DOCS.get },
    })
    .post(PATH, async ({ principal, query, body, request, set }) => answer(set, await walkForward(services, principal, { query, body, given: givenIn(request) }, 'POST')), {
      auth: 'POST /api/backtest/walk-forward',
      query: WalkForwardQuery,
      // Without a body: {} (the fields may come as query parameters).
      jsonBody: { limit: BODY_LIMIT_BYTES, schema: WalkForwardBody, optional: true },
      body: WalkForwardBody,
      response: { ...withErrors(WalkForwardResponse, 400, 401, 403, 404, 413, 429, 500), 202: job },
      detail: { ...BACKTEST_DOCS.post },
    })
    .get('/api/backtest/jobs/:id', ({ principal, params }) => backtestJob(services, principal, params.id), {
      auth: 'GET /api/backtest/jobs/:id',
      params: JobParams,
      response: { 200: job, ...jobErrors },
      detail: { ...BACKTEST_DOCS.job },
    });
}
