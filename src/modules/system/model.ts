/** @module modules/system/model — schemas of the System tag: health and the liveness/readiness probes. */
import { t, type Static } from 'elysia';
import { CheckResult, CheckStatus } from '../../domain/health';

export { CheckStatus };

export const HealthResponse = t.Object(
  {
    status: t.Union([t.Literal('ok'), t.Literal('degraded')]),
    checks: t.Object({
      db: CheckStatus,
      dataAdapter: CheckStatus,
      env: CheckStatus,
      kv: CheckStatus,
      pool: CheckStatus,
      /** The realtime event bus (additive to the spec's checks; see the operation's description). */
      bus: CheckStatus,
    }),
    version: t.String(),
    uptime: t.Integer({ description: 'Seconds since process start' }),
    timestamp: t.String({ format: 'date-time' }),
    checkedAt: t.String({ format: 'date-time', description: 'When the checks reported here ran (they run in the background on an interval)' }),
    ageMs: t.Integer({ minimum: 0, description: 'Milliseconds between that round of checks and this answer' }),
    details: t.Optional(
      t.Record(t.String(), CheckResult, {
        description: 'Per-check latency and, when not ok, what failed (names the provider and symbol for dataAdapter). `ai` (additive, not a check: it never makes the service degraded or 503) is the explanation model\'s circuit: ok (closed), degraded (open, half-open or held by Retry-After) or warn (no model configured).',
      }),
    ),
  },
  { title: 'HealthResponse' },
);

export const LivenessResponse = t.Object(
  { status: t.Literal('ok'), uptime: t.Integer({ description: 'Seconds since process start' }) },
  { title: 'LivenessResponse' },
);

export const ReadinessResponse = t.Object(
  {
    status: t.Union([t.Literal('ready'), t.Literal('starting'), t.Literal('not_ready'), t.Literal('stopping')], {
      description: '`stopping` from the moment the process is told to stop (SIGTERM/SIGINT): it still serves for SHUTDOWN_DRAIN_SECONDS while balancers take it out',
    }),
    step: t.String({ description: "What the warm-up is doing ('done' once it finished)" }),
    checks: t.Object({
      database: t.Boolean({ description: 'The last health round reached the database' }),
      migrations: t.Boolean({ description: 'Migrations have run' }),
      pool: t.Boolean({ description: 'The last health round ran a task through a worker thread' }),
      firstScan: t.Boolean({ description: 'The latest scan of the daily timeframe is loaded' }),
    }),
    uptime: t.Integer({ description: 'Seconds since process start' }),
  },
  { title: 'ReadinessResponse' },
);

export type HealthResponse = Static<typeof HealthResponse>;
export type ReadinessResponse = Static<typeof ReadinessResponse>;

/** OpenAPI text of the System routes. */
export const SYSTEM_DOCS = {
  health: {
    tags: ['System'],
    summary: 'Service health',
    description:
      'The last background round of checks (every HEALTH_CHECK_INTERVAL_SECONDS): the database (a query), the market-data provider (its self-check), the configuration (warn on synthetic data), the rate-limit store (`kv`: `degraded` while Redis cannot be reached and requests are limited in-process per instance), the worker pool (a task through a worker thread) and the event bus (`bus`: `degraded` while Redis or the event log cannot be read, `down` when neither can), with when they ran. 503 with the same body when a subsystem is down. Does not count against the rate limit.',
  },
  livez: {
    tags: ['System'],
    summary: 'Liveness probe',
    description: '200 while the process answers, from the first moment it listens (also during the warm-up). Not rate limited.',
  },
  readyz: {
    tags: ['System'],
    summary: 'Readiness probe',
    description:
      '200 once the database is reachable, migrations have run, the worker pool answers and the first scan is loaded; 503 with the same body (and the warm-up step) before, and from the moment the process is told to stop (`status: stopping`). Not rate limited.',
  },
};
