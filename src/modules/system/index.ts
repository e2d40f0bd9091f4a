/** @module modules/system — GET /api/health, and the probes GET /livez and GET /readyz (outside /api: never rate limited). */
import { Elysia } from 'elysia';
import type { Services } from '../../services';
import { withErrors } from '../params';
import { HealthResponse, LivenessResponse, ReadinessResponse, SYSTEM_DOCS } from './model';
import { health, liveness, readinessOf } from './service';

export function systemModule(services: Services) {
  return new Elysia({ name: 'breakline/system' })
    .get(
      '/api/health',
      async ({ set }) => {
        const { body, httpStatus } = await health(services);
        set.status = httpStatus;
        return body;
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
    );
}
