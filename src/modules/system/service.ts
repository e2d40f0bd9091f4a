/**
 * @module modules/system/service
 * Health and readiness answered from the last background round of checks
 * (jobs/health): no request waits on a subsystem. Before the first round, or
 * when the rounds have stopped (a test context never starts them), one round
 * runs and is then reused.
 */
import { readiness } from '../../jobs/health';
import type { Services } from '../../services';
import type { HealthResponse, ReadinessResponse } from './model';
import pkg from '../../../package.json' with { type: 'json' };

/** A round older than this many intervals is stale: the background rounds are not running. */
const STALE_INTERVALS = 3;

async function lastRound(services: Services) {
  const last = services.health.last;
  const maxAgeMs = STALE_INTERVALS * services.config.healthCheckIntervalSeconds * 1000;
  return last && Date.now() - last.checkedAt <= maxAgeMs ? last : services.health.refresh();
}

const uptime = (services: Services) => Math.floor((Date.now() - services.startedAt) / 1000);

export async function health(services: Services): Promise<{ body: HealthResponse; httpStatus: 200 | 503 }> {
  const { checks, details, checkedAt } = await lastRound(services);
  const statuses = Object.values(checks);
  const anyDown = statuses.includes('down');
  const now = Date.now();
  const body: HealthResponse = {
    status: anyDown || statuses.includes('degraded') ? 'degraded' : 'ok',
    checks,
    version: pkg.version,
    uptime: uptime(services),
    timestamp: new Date(now).toISOString(),
    checkedAt: new Date(checkedAt).toISOString(),
    ageMs: Math.max(0, now - checkedAt),
    details,
  };
  return { body, httpStatus: anyDown ? 503 : 200 };
}

export function liveness(services: Services) {
  return { status: 'ok' as const, uptime: uptime(services) };
}

export function readinessOf(services: Services): { body: ReadinessResponse; httpStatus: 200 | 503 } {
  const { ready, checks } = readiness(services.warmUp, services.health.last);
  const status = ready ? 'ready' : services.warmUp.step === 'done' ? 'not_ready' : 'starting';
  return { body: { status, step: services.warmUp.step, checks, uptime: uptime(services) }, httpStatus: ready ? 200 : 503 };
}
