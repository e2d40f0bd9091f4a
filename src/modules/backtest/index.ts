/** @module modules/backtest — the Backtest tag: GET/POST /api/backtest/walk-forward and GET /api/backtest/jobs/:id, session required. */
import { Elysia } from 'elysia';
import { auth } from '../../plugins/auth';
import { optionalJsonBodyWithin } from '../../plugins/json-body';
import type { Services } from '../../services';
import { withErrors } from '../params';
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
    .use(auth(services.auth.authenticator))
    .get(PATH, async ({ principal, query, request, set }) => answer(set, await walkForward(services, principal, { query, given: givenIn(request) }, 'GET')), {
      auth: 'session',
      query: WalkForwardQuery,
      response: withErrors(WalkForwardResponse, 400, 401, 403, 404, 413, 429, 500),
      detail: { ...BACKTEST_DOCS.get },
    })
    .post(PATH, async ({ principal, query, body, request, set }) => answer(set, await walkForward(services, principal, { query, body, given: givenIn(request) }, 'POST')), {
      auth: 'session',
      query: WalkForwardQuery,
      // Our strict, size-limited reader answers (no body: {}); 'application/json' only names the body's type in the OpenAPI document.
      parse: [optionalJsonBodyWithin(BODY_LIMIT_BYTES, WalkForwardBody), 'application/json'],
      body: WalkForwardBody,
      response: { ...withErrors(WalkForwardResponse, 400, 401, 403, 404, 413, 429, 500), 202: job },
      // The limit in the document as plugins/body-limit's `maxBody` states it (that reader cannot take an optional body).
      detail: { ...BACKTEST_DOCS.post, 'x-max-body-bytes': BODY_LIMIT_BYTES },
    })
    .get('/api/backtest/jobs/:id', ({ principal, params }) => backtestJob(services, principal, params.id), {
      auth: 'session',
      params: JobParams,
      response: { 200: job, ...jobErrors },
      detail: { ...BACKTEST_DOCS.job },
    });
}
