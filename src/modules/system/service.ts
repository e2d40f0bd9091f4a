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
import type { AiStatus } from '../../ai';
import type { CheckResult } from '../../domain/health';
import { readiness, type HealthMonitor, type HealthSnapshot } from '../../jobs/health';
import type { Services } from '../../services';
import type { HealthResponse, ReadinessResponse } from './model';
import pkg from '../../../package.json' with { type: 'json' };

/** What health is answered from (the composition root's services; a test may pass its own). */
export interface HealthSources {
  health: Pick<HealthMonitor, 'last' | 'refresh'>;
  config: { healthCheckIntervalSeconds: number };
  startedAt: number;
  explainer: { status(): AiStatus };
}

/** A round older than this many intervals is stale: the background rounds are not running. */
const STALE_INTERVALS = 3;

async function lastRound(services: HealthSources) {
  const last = services.health.last;
  const maxAgeMs = STALE_INTERVALS * services.config.healthCheckIntervalSeconds * 1000;
  return last && Date.now() - last.checkedAt <= maxAgeMs ? last : services.health.refresh();
}

const uptime = (services: Pick<Services, 'startedAt'>, now = Date.now()) => Math.floor((now - services.startedAt) / 1000);

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

/** The fields of the model's status that {@link aiCheck} reads (its call counters are not among them). */
const AI_CHECK_FIELDS = ['provider', 'model', 'circuit', 'reason', 'heldUntil', 'openedAt', 'consecutiveFailures', 'lastFailure', 'probeAt'] as const satisfies readonly (keyof AiStatus)[];

/** Whether two statuses of the model give the same {@link aiCheck}. */
const sameCheck = (a: AiStatus, b: AiStatus): boolean => AI_CHECK_FIELDS.every((field) => a[field] === b[field]);

export async function health(services: HealthSources, now?: number): Promise<{ body: HealthResponse; httpStatus: 200 | 503 }> {
  const { checks, details, checkedAt } = await lastRound(services);
  const at = now ?? Date.now();
  const statuses = Object.values(checks);
  const anyDown = statuses.includes('down');
  const body: HealthResponse = {
    status: anyDown || statuses.includes('degraded') ? 'degraded' : 'ok',
    checks,
    version: pkg.version,
    uptime: uptime(services, at),
    timestamp: new Date(at).toISOString(),
    checkedAt: new Date(checkedAt).toISOString(),
    ageMs: Math.max(0, at - checkedAt),
    details: { ...details, ai: aiCheck(services.explainer.status()) },
  };
  return { body, httpStatus: anyDown ? 503 : 200 };
}

/**
 * The same answer as {@link health}, already serialised, with no await: the
 * parts one round fixes (status, checks, details) are serialised once a round,
 * the clock fields and `details.ai` (read live) per answer (the same bytes as
 * `JSON.stringify(body)`; test/modules/system-health-text.test.ts checks it).
 * Null while there is no fresh round (then {@link health} runs one). Within
 * one millisecond the same answer object is given again while neither the
 * round nor the model's status changed (a caller may key on its text).
 * For the fast path (plugins/fast-path), where a probe answers in a few microseconds.
 */
export function healthText(services: HealthSources): (now?: number) => { text: string; httpStatus: 200 | 503 } | null {
  let round: HealthSnapshot | undefined;
  let head = '';
  let checkedAtIso = '';
  let detailsHead = '';
  let httpStatus: 200 | 503 = 200;
  let isoAt = Number.NaN;
  let isoText = '';
  let ai: AiStatus | undefined;
  let aiText = '';
  // The last answer, given again while nothing in it changed (the same millisecond, round and model status).
  let answer: { text: string; httpStatus: 200 | 503 } | null = null;
  return (now = Date.now()) => {
    const last = services.health.last;
    if (!last || now - last.checkedAt > STALE_INTERVALS * services.config.healthCheckIntervalSeconds * 1000) return null;
    if (last !== round) {
      round = last;
      answer = null;
      const statuses = Object.values(last.checks);
      const anyDown = statuses.includes('down');
      httpStatus = anyDown ? 503 : 200;
      const status = anyDown || statuses.includes('degraded') ? 'degraded' : 'ok';
      head = `{"status":${JSON.stringify(status)},"checks":${JSON.stringify(last.checks)},"version":${JSON.stringify(pkg.version)},"uptime":`;
      checkedAtIso = new Date(last.checkedAt).toISOString();
      detailsHead = `${JSON.stringify(last.details).slice(0, -1)},`; // every check has its entry: never `{}`
    }
    // The model's status is read live but changes rarely: serialised again only when one of its fields did.
    const status = services.explainer.status();
    if (ai === undefined || !sameCheck(status, ai)) {
      ai = status;
      aiText = JSON.stringify(aiCheck(status));
      answer = null;
    }
    if (now !== isoAt) {
      isoAt = now;
      isoText = new Date(now).toISOString();
      answer = null;
    }
    if (answer) return answer;
    const text = `${head}${uptime(services, now)},"timestamp":"${isoText}","checkedAt":"${checkedAtIso}","ageMs":${Math.max(0, now - last.checkedAt)},"details":${detailsHead}"ai":${aiText}}}`;
    return (answer = { text, httpStatus });
  };
}

export function liveness(services: Services) {
  return { status: 'ok' as const, uptime: uptime(services) };
}

export function readinessOf(services: Services): { body: ReadinessResponse; httpStatus: 200 | 503 } {
  const { ready, checks } = readiness(services.warmUp, services.health.last);
  const status = services.warmUp.stopping ? 'stopping' : ready ? 'ready' : services.warmUp.step === 'done' ? 'not_ready' : 'starting';
  return { body: { status, step: services.warmUp.step, checks, uptime: uptime(services) }, httpStatus: ready ? 200 : 503 };
}
