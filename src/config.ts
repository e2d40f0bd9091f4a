/**
 * @module config
 * Every environment variable Breakline reads, parsed once with zod. Nothing else
 * reads `process.env`. Defaults run fully offline: PGlite under `STATE_DIR`,
 * the synthetic market, the in-process bus and rate limiter.
 *
 * @example
 * const config = loadConfig({ PORT: '8080' }); // => { port: 8080, ... }
 */
import { join } from 'node:path';
import { z } from 'zod';

export const API_VERSIONS = ['1.0.0', '1.1.0'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes' || v === 'on');

const onOff = z.enum(['on', 'off']);

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  STATE_DIR: z.string().min(1).default('.breakline'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  MARKET_DATA_PROVIDER: z.enum(['synthetic', 'csv', 'yahoo']).default('synthetic'),
  CSV_DIR: z.string().min(1).optional(),
  SYNTHETIC_SEED: z.coerce.number().int().default(42),
  YAHOO_BASE_URL: z.string().regex(/^https?:\/\//, 'must be an http(s) URL').default('https://query1.finance.yahoo.com'),
  YAHOO_RATE_PER_SECOND: z.coerce.number().positive().max(100).default(5),
  /** SEC EDGAR as the source of insiders, filings and shares outstanding; the SEC requires a contact. */
  EDGAR_USER_AGENT: z.string().regex(/\S+@\S+\.\S+/, "must name you and a contact e-mail, e.g. 'Acme Research ops@acme.example' (SEC fair-access policy)").optional(),
  EDGAR_BASE_URL: z.string().regex(/^https?:\/\//, 'must be an http(s) URL').default('https://www.sec.gov'),
  EDGAR_DATA_URL: z.string().regex(/^https?:\/\//, 'must be an http(s) URL').default('https://data.sec.gov'),
  FINRA_SHORT_INTEREST: onOff.default('off'),
  FINRA_BASE_URL: z.string().regex(/^https?:\/\//, 'must be an http(s) URL').default('https://cdn.finra.org'),
  API_DEFAULT_VERSION: z.enum(API_VERSIONS).default('1.0.0'),
  RATE_LIMIT_QUOTA: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  MACRO_CALENDAR: onOff.default('on'),
  /** How long fetched bars count as fresh before the provider is asked again. */
  BARS_CACHE_TTL_SECONDS: z.coerce.number().int().min(0).default(300),
  /** Worker threads for scans; default the machine's cores. */
  POOL_SIZE: z.coerce.number().int().min(1).max(64).optional(),
  /** Seconds between scheduler passes; 0 turns the scheduler off. */
  SCAN_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(300),
  /** Replay the last two years in the background on first start (auto: on for the synthetic market only). */
  REPLAY_ON_BOOT: z.enum(['auto', 'on', 'off']).default('auto'),
});

export interface Config {
  port: number;
  host: string;
  stateDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  marketDataProvider: 'synthetic' | 'csv' | 'yahoo';
  csvDir?: string;
  syntheticSeed: number;
  yahoo: { baseUrl: string; ratePerSecond: number };
  /** Set when EDGAR_USER_AGENT is: SEC EDGAR answers insiders, filings and shares outstanding. */
  edgar: { userAgent: string; baseUrl: string; dataUrl: string } | null;
  /** Set when FINRA_SHORT_INTEREST=on: FINRA files answer short interest. */
  finra: { baseUrl: string } | null;
  apiDefaultVersion: ApiVersion;
  rateLimit: { quota: number; windowSeconds: number };
  trustProxy: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  macroCalendar: boolean;
  barsCacheTtlSeconds: number;
  poolSize: number;
  scanIntervalSeconds: number;
  /** Run the boot replay (jobs/replay/boot) in the background after the server starts. */
  replayOnBoot: boolean;
}

/** A configuration problem, naming every bad variable. */
export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment (blank values count as unset).
 * @throws {ConfigError} naming each variable that is invalid.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(schema.shape)
      .map((key) => [key, env[key]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  if (e.MARKET_DATA_PROVIDER === 'csv' && !e.CSV_DIR) {
    throw new ConfigError(['CSV_DIR: required when MARKET_DATA_PROVIDER=csv']);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    stateDir: e.STATE_DIR,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    marketDataProvider: e.MARKET_DATA_PROVIDER,
    csvDir: e.CSV_DIR,
    syntheticSeed: e.SYNTHETIC_SEED,
    yahoo: { baseUrl: e.YAHOO_BASE_URL.replace(/\/+$/, ''), ratePerSecond: e.YAHOO_RATE_PER_SECOND },
    edgar: e.EDGAR_USER_AGENT ? { userAgent: e.EDGAR_USER_AGENT, baseUrl: e.EDGAR_BASE_URL.replace(/\/+$/, ''), dataUrl: e.EDGAR_DATA_URL.replace(/\/+$/, '') } : null,
    finra: e.FINRA_SHORT_INTEREST === 'on' ? { baseUrl: e.FINRA_BASE_URL.replace(/\/+$/, '') } : null,
    apiDefaultVersion: e.API_DEFAULT_VERSION,
    rateLimit: { quota: e.RATE_LIMIT_QUOTA, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    macroCalendar: e.MACRO_CALENDAR === 'on',
    barsCacheTtlSeconds: e.BARS_CACHE_TTL_SECONDS,
    poolSize: e.POOL_SIZE ?? navigator.hardwareConcurrency ?? 2,
    scanIntervalSeconds: e.SCAN_INTERVAL_SECONDS,
    replayOnBoot: e.REPLAY_ON_BOOT === 'auto' ? e.MARKET_DATA_PROVIDER === 'synthetic' : e.REPLAY_ON_BOOT === 'on',
  };
}

/** Where the embedded database lives under `STATE_DIR`. */
export function pgliteDataDir(config: Config): string {
  return join(config.stateDir, 'pgdata');
}
