/** @module modules/system/model — schemas of the System tag. */
import { t, type Static } from 'elysia';

export const CheckStatus = t.Union([t.Literal('ok'), t.Literal('down'), t.Literal('warn'), t.Literal('degraded')]);

export const HealthResponse = t.Object(
  {
    status: t.Union([t.Literal('ok'), t.Literal('degraded')]),
    checks: t.Object({ db: CheckStatus, dataAdapter: CheckStatus, env: CheckStatus, kv: CheckStatus }),
    version: t.String(),
    uptime: t.Integer({ description: 'Seconds since process start' }),
    timestamp: t.String({ format: 'date-time' }),
    details: t.Optional(
      t.Record(t.String(), t.Object({ status: CheckStatus, latencyMs: t.Number(), message: t.Optional(t.String()) }), {
        description: 'Per-check latency and, when not ok, what failed (names the provider and symbol for dataAdapter)',
      }),
    ),
  },
  { title: 'HealthResponse' },
);

export type HealthResponse = Static<typeof HealthResponse>;
export type CheckStatus = Static<typeof CheckStatus>;

/** OpenAPI text of the System route. */
export const SYSTEM_DOCS = {
  health: {
    tags: ['System'],
    summary: 'Service health',
    description:
      'Checks the database (a query), the market-data provider (its self-check), the configuration (warn on synthetic data) and the rate-limit store (`kv`: `degraded` while Redis cannot be reached and requests are limited in-process per instance). 503 with the same body when a subsystem is down.',
  },
};
