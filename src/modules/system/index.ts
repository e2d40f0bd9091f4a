/** @module modules/system — GET /api/health. */
import { Elysia } from 'elysia';
import type { Services } from '../../services';
import { withErrors } from '../params';
import { HealthResponse, SYSTEM_DOCS } from './model';
import { health } from './service';

export function systemModule(services: Services) {
  return new Elysia({ name: 'breakline/system' }).get(
    '/api/health',
    async ({ set }) => {
      const { body, httpStatus } = await health(services);
      set.status = httpStatus;
      return body;
    },
    { response: { ...withErrors(HealthResponse, 429), 503: HealthResponse }, detail: SYSTEM_DOCS.health },
  );
}
