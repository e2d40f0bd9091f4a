/**
 * @module modules/system/service
 * Health: real checks of every subsystem, each bounded by a timeout so a hung
 * dependency reads as `down` instead of hanging the probe. `kv` is `degraded`
 * (200, not 503) while Redis is away and requests are limited in-process.
 */
import type { Services } from '../../services';
import type { CheckStatus, HealthResponse } from './model';
import pkg from '../../../package.json' with { type: 'json' };

const CHECK_TIMEOUT_MS = 2000;

interface CheckResult {
  status: CheckStatus;
  latencyMs: number;
  message?: string;
}

async function timed(run: () => Promise<{ status: CheckStatus; message?: string } | void>): Promise<CheckResult> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    const result = (await Promise.race([run(), timeout])) ?? { status: 'ok' as const };
    return { ...result, latencyMs: round(performance.now() - started) };
  } catch (error) {
    return { status: 'down', latencyMs: round(performance.now() - started), message: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;

export async function health(services: Services): Promise<{ body: HealthResponse; httpStatus: 200 | 503 }> {
  const { database, marketData, rateLimitStore, config } = services;
  const [db, dataAdapter, kv] = await Promise.all([
    timed(() => database.ping()),
    timed(async () => {
      const check = await marketData.provider.selfCheck();
      return { status: check.status, message: check.message };
    }),
    timed(async () => {
      await rateLimitStore.ping();
      const degradation = await rateLimitStore.degradation();
      return degradation ? { status: 'degraded' as const, message: degradation } : undefined;
    }),
  ]);
  const env: CheckResult = marketData.provider.synthetic
    ? { status: 'warn', latencyMs: 0, message: `serving synthetic market data (MARKET_DATA_PROVIDER=${config.marketDataProvider})` }
    : { status: 'ok', latencyMs: 0 };
  const checks = { db: db.status, dataAdapter: dataAdapter.status, env: env.status, kv: kv.status };
  const statuses = Object.values(checks);
  const anyDown = statuses.includes('down');
  const body: HealthResponse = {
    status: anyDown || statuses.includes('degraded') ? 'degraded' : 'ok',
    checks,
    version: pkg.version,
    uptime: Math.floor((Date.now() - services.startedAt) / 1000),
    timestamp: new Date().toISOString(),
    details: { db, dataAdapter, env, kv },
  };
  return { body, httpStatus: anyDown ? 503 : 200 };
}
