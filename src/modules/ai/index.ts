/** @module modules/ai — the AI tag: GET and POST /api/explain, behind their own stricter quota. */
import { Elysia } from 'elysia';
import { costLimit } from '../../plugins/cost-limit';
import { jsonBodyWithin } from '../../plugins/json-body';
import type { Services } from '../../services';
import { withErrors } from '../params';
import { AI_DOCS, ExplainQuery, ExplainRequestBody, ExplainResponse } from './model';
import { explainPosted, explainSignal } from './service';

export function aiModule(services: Services) {
  const { config, log } = services;
  const explainQuota = costLimit({
    bucket: 'explain',
    store: services.rateLimitStore,
    quota: config.explain.quota,
    windowSeconds: config.explain.windowSeconds,
    trustProxy: config.trustProxy,
    log,
  });
  return new Elysia({ name: 'breakline/ai' })
    .get('/api/explain', ({ query }) => explainSignal(services, query), {
      query: ExplainQuery,
      beforeHandle: explainQuota,
      response: withErrors(ExplainResponse, 400, 404, 429, 500, 502, 503),
      detail: AI_DOCS.get,
    })
    .post('/api/explain', ({ body }) => explainPosted(services, body), {
      // Our size-limited reader answers; 'application/json' only names the body's type in the OpenAPI document.
      parse: [jsonBodyWithin(config.explain.bodyLimitBytes, ExplainRequestBody), 'application/json'],
      body: ExplainRequestBody,
      beforeHandle: explainQuota,
      response: withErrors(ExplainResponse, 400, 413, 429, 502, 503),
      detail: AI_DOCS.post,
    });
}
