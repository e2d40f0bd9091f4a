/** @module modules/system — GET /api/health. */
import { Elysia } from 'elysia';
import type { Services } from '../../services';
import { withErrors } from '../params';
import { HealthResponse } from './model';
import { health } from './service';

export function systemModule(services: Services) {
  return new Elysia({ name: 'breakline/system' }).get(
    '/api/health',
    async ({ set }) => {
      const { body, httpStatus } = await health(services);
      set.status = httpStatus;
      return body;
    },
    {
      response: { ...withErrors(HealthResponse, 429), 503: HealthResponse },
      detail: {
        tags: ['System'],
        summary: 'Service health',
        description:
          'Checks the database (a query), the market-data provider (its self-check), the configuration (warn on synthetic data) and the rate-limit store. 503 with the same body when a subsystem is down.',
      },
    },
  );
}
