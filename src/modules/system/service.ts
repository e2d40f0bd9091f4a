/**
 * @module modules/system/service
 * Health and readiness answered from the last background round of checks
 * (jobs/health): no request waits on a subsystem. Before the first round, or
 * when the rounds have stopped (a test context never starts them), one round
 * runs and is then reused. The explanation model's circuit is an extra
 * `details.ai`, read live (never a reason for 503).
 * `kv` is `degraded` (200, not 503) while Redis is away and requests are
 * limited in-process.
 */
import { readiness } from '../../jobs/health';
import type { AiStatus } from '../../ai';
import type { CheckResult } from '../../domain/health';
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

/**
 * The explanation model's circuit, as a detail only: it is not one of the
 * spec's `checks`, so a degraded or unconfigured model never turns the
 * service's status (or the probe) down. No model call is made to check it.
 */
function aiCheck(ai: AiStatus): CheckResult {
  const who = `${ai.provider}${ai.model ? ` ${ai.model}` : ''}`;
  switch (ai.circuit) {
    case 'disabled':
      return { status: 'warn', latencyMs: 0, message: `/api/explain answers 503: ${ai.reason}` };
    case 'closed':
      return ai.heldUntil ? { status: 'degraded', latencyMs: 0, message: `${who}: calls held until ${ai.heldUntil} (Retry-After)` } : { status: 'ok', latencyMs: 0 };
    case 'half_open':
      return { status: 'degraded', latencyMs: 0, message: `${who}: circuit half-open, one probe request in flight` };
    default:
      return { status: 'degraded', latencyMs: 0, message: `${who}: circuit ${ai.circuit} since ${ai.openedAt ?? 'now'} after ${ai.consecutiveFailures} failed calls (last: ${ai.lastFailure ?? 'unknown'}); next probe at ${ai.probeAt ?? 'unknown'}` };
  }
}

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
    details: { ...details, ai: aiCheck(services.explainer.status()) },
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
