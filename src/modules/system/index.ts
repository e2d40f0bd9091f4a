/** @module modules/system — GET /api/health, the probes GET /livez and GET /readyz, and GET /metrics (outside /api: never rate limited). */
import { Elysia } from 'elysia';
import type { FastRoute } from '../../plugins/fast-path';
import { etagOf } from '../../plugins/representation';
import type { Services } from '../../services';
import { jsonResponse, withErrors } from '../shared/params';
import { HealthResponse, LivenessResponse, ReadinessResponse, SYSTEM_DOCS } from './model';
import { health, healthText, liveness, readinessOf } from './service';

export function systemModule(services: Services) {
  return new Elysia({ name: 'breakline/system' })
    .get(
      '/api/health',
      async ({ set }) => {
        const { body, httpStatus } = await health(services);
        set.status = httpStatus;
        // Serialised here: a plain object would be checked and encoded against the response schema per request.
        return jsonResponse(JSON.stringify(body), false);
      },
      { response: { ...withErrors(HealthResponse), 503: HealthResponse }, detail: SYSTEM_DOCS.health },
    )
    .get('/livez', () => liveness(services), { response: { 200: LivenessResponse }, detail: SYSTEM_DOCS.livez })
    .get(
      '/readyz',
      ({ set }) => {
        const { body, httpStatus } = readinessOf(services);
        set.status = httpStatus;
        return body;
      },
      { response: { 200: ReadinessResponse, 503: ReadinessResponse }, detail: SYSTEM_DOCS.readyz },
    )
    // Prometheus text for the operator's scraper: outside /api (never rate limited) and outside the
    // published API document (not part of the interface; its format is Prometheus's, not JSON).
    .get('/metrics', async () => new Response(await services.metrics.text(), { headers: { 'content-type': services.metrics.contentType } }), {
      detail: { hide: true },
    });
}

/**
 * /api/health on the fast path (plugins/fast-path) while it answers 200; a 503 goes the ordinary way.
 * From a fresh round the answer is synchronous (serialised by `healthText`); before one, a round runs.
 */
export function systemFastRoutes(services: Services): FastRoute<never>[] {
  const now = healthText(services);
  // The ETag of the last text: the same text (object) is answered again within its millisecond, hashed once.
  let etagged = { text: '', etag: etagOf('') };
  const probe: FastRoute = {
    path: '/api/health',
    answer() {
      const fresh = now();
      if (fresh) {
        if (fresh.httpStatus !== 200) return null;
        if (fresh.text !== etagged.text) etagged = { text: fresh.text, etag: etagOf(fresh.text) };
        return { text: etagged.text, held: false, etag: etagged.etag };
      }
      return health(services).then(({ body, httpStatus }) => (httpStatus === 200 ? { text: JSON.stringify(body), held: false } : null));
    },
  };
  return [probe] as FastRoute<never>[];
}
