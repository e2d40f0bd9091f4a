/** @module modules/ai — the AI tag: GET and POST /api/explain, behind their own stricter quota (the rate limiter's `explain` class). */
import { Elysia } from 'elysia';
import { bodyLimit } from '../../plugins/body-limit';
import { rateLimit, rateLimitOptions } from '../../plugins/rate-limit';
import type { Services } from '../../services';
import { withErrors } from '../shared/params';
import { AI_DOCS, ExplainQuery, ExplainRequestBody, ExplainResponse } from './model';
import { explainPosted, explainSignal } from './service';

export function aiModule(services: Services) {
  const { config } = services;
  return new Elysia({ name: 'breakline/ai' })
    .use(bodyLimit)
    .use(rateLimit(rateLimitOptions(services)))
    .get('/api/explain', ({ query }) => explainSignal(services, query), {
      query: ExplainQuery,
      costly: { class: 'explain' },
      response: withErrors(ExplainResponse, 400, 404, 429, 500, 502, 503),
      detail: AI_DOCS.get,
    })
    .post('/api/explain', ({ body }) => explainPosted(services, body), {
      jsonBody: { limit: config.explain.bodyLimitBytes, schema: ExplainRequestBody },
      body: ExplainRequestBody,
      costly: { class: 'explain' },
      response: withErrors(ExplainResponse, 400, 413, 429, 502, 503),
      detail: { ...AI_DOCS.post },
    });
}
