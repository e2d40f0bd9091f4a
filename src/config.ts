/**
 * @module config
 * Every environment variable Breakline reads (declared in config-schema),
 * parsed once with zod into the typed `Config`. Nothing else reads
 * `process.env`. Defaults run fully offline: PGlite under `STATE_DIR`,
 * the synthetic market, the in-process event bus and rate limiter.
 *
 * @example
 * const config = loadConfig({ PORT: '8080' }); // => { port: 8080, ... }
 */
import { join } from 'node:path';
import { envSchema, type ApiVersion, type Env, type ProxyTrust } from './config-schema';
import { TIERS, type Tier } from './domain/tiers';

export { API_VERSIONS, type ApiVersion, type ProxyTrust } from './config-schema';


/**
 * What a stop has after the drain, for the streams, in-flight requests, background jobs and closing the
 * database: the default drain (2 s) and this make DESIGN's "exit within 5 s".
 */
export const SHUTDOWN_AFTER_DRAIN_MS = 3000;

/** Every environment variable the configuration reads (the help text lists them). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

export interface Config {
  port: number;
  host: string;
  stateDir: string;
  databaseUrl?: string;
  /** Connections the PostgreSQL client may open (DB_POOL_MAX). */
  databasePoolMax: number;
  redisUrl?: string;
  marketDataProvider: 'synthetic' | 'csv' | 'yahoo' | 'alpaca' | 'polygon';
  csvDir?: string;
  syntheticSeed: number;
  yahoo: { baseUrl: string; ratePerSecond: number };
  /** Set when MARKET_DATA_PROVIDER=alpaca (both keys are then required). */
  alpaca: { keyId: string; secretKey: string; feed: 'iex' | 'sip'; adjustment: 'raw' | 'split' | 'dividend' | 'all'; dataUrl: string; streamUrl: string; ratePerMinute: number; barsFrom: 'bars' | 'trades' } | null;
  /** Set when MARKET_DATA_PROVIDER=polygon (the key is then required). */
  polygon: { apiKey: string; baseUrl: string; streamUrl: string; ratePerMinute: number; barsFrom: 'bars' | 'trades' } | null;
  /** The vendor stream of alpaca and polygon. */
  live: { stream: boolean; extendedHours: boolean; silentSeconds: number; tradeSymbols: number | null };
  /** Set when EDGAR_USER_AGENT is: SEC EDGAR answers insiders, filings and shares outstanding. */
  edgar: { userAgent: string; baseUrl: string; dataUrl: string } | null;
  /** Set when FINRA_SHORT_INTEREST=on: FINRA files answer short interest. */
  finra: { baseUrl: string } | null;
  apiDefaultVersion: ApiVersion;
  rateLimit: {
    /** Requests per window for a client without credentials, counted per IP. */
    quota: number;
    /** Requests per window of the costly class (replays, universe scans, the whole ledger), on top of the quota. */
    costlyQuota: number;
    windowSeconds: number;
    /** Requests per window for an authenticated user or API key, by tier. */
    tierQuotas: Record<Tier, number>;
  };
  /** Prefix of every Redis key. */
  redisKeyPrefix: string;
  auth: AuthConfig;
  /** The proxies trusted to name the client in `X-Forwarded-For` (plugins/client-address); null: none, the socket peer is the client. */
  trustProxy: ProxyTrust | null;
  /** CORS: `*`, the allowed origins, or undefined (same origin only). */
  corsOrigins: '*' | string[] | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  macroCalendar: boolean;
  barsCacheTtlSeconds: number;
  poolSize: number;
  scanIntervalSeconds: number;
  /** Run the boot replay (jobs/replay/boot) in the background after the server starts. */
  replayOnBoot: boolean;
  healthCheckIntervalSeconds: number;
  /** The stop sequence (cli/shutdown): serve `drainMs` with /readyz 503, then finish; exit by `deadlineMs` after the signal whatever runs. */
  shutdown: { drainMs: number; deadlineMs: number };
  ai: AiConfig;
  /** The explain endpoints' own quota and body limit. */
  explain: { quota: number; tierQuotas: Record<Tier, number>; windowSeconds: number; bodyLimitBytes: number };
  graphql: {
    maxDepth: number;
    maxAliases: number;
    batchLimit: number;
    maxCost: Record<Tier, number>;
    introspection: boolean;
    /** graphql-sse streams reserved by PUT and not yet opened: released after `reservationSeconds`; at most `maxReservations` an instance, `maxReservationsPerClient` a client. */
    sse: { reservationSeconds: number; maxReservations: number; maxReservationsPerClient: number };
  };
  stream: {
    /** Between `: ping` comments; 0 sends none. */
    pingMs: number;
    /** The reconnection delay a client is told (`retry:` in hello). */
    retryMs: number;
    replaySize: number;
    replayMaxAgeSeconds: number;
    /** Quote tick: at most one quote per symbol per client per interval. */
    quoteIntervalMs: number;
    /** How often a remote provider is polled per subscribed symbol. */
    quotePollSeconds: number;
    maxConnections: number;
    /** Open streams per client IP (or per user when signed in). */
    maxConnectionsPerClient: number;
    maxSymbols: number;
    /** Bytes handed to a client's socket at a time; its further events wait in the replay buffer. */
    queueBytes: number;
    /** A client with events waiting that takes nothing for this long is dropped. */
    stallSeconds: number;
  };
  account: AccountConfig;
}

/** Account features: watchlists, alert rules and their webhooks, exports, the community feed. */
export interface AccountConfig {
  caps: { watchlists: Record<Tier, number>; watchlistSymbols: Record<Tier, number>; alertRules: Record<Tier, number>; apiKeys: Record<Tier, number> };
  bodyLimitBytes: number;
  idempotencyTtlMs: number;
  webhooks: { allowPrivate: boolean; caFile?: string; timeoutMs: number; maxAttempts: number; backoffMs: number };
  exportTtlMs: number;
  community: { postQuota: number; postWindowSeconds: number; hideAfterReports: number };
  /** User ids with the admin role. */
  adminUserIds: string[];
}

/** The language model behind /api/explain (src/ai). `model: null` means none is usable: the reason says why. */
export interface AiConfig {
  provider: 'anthropic' | 'openai' | 'off';
  baseUrl: string;
  apiKey?: string;
  model: string | null;
  /** Set when no model can be asked (explain answers 503 `ai_unavailable` with it). */
  unavailableReason?: string;
  responseFormat: 'json_schema' | 'json_object' | 'off';
  timeoutMs: number;
  maxOutputTokens: number;
  breaker: { failures: number; halfOpenAfterMs: number };
}

/** Where an identity provider's public keys come from: verification never calls the provider per request. */
export type ProviderKeys = { source: 'jwks-url'; url: string } | { source: 'jwks-file'; path: string } | { source: 'pem'; pem: string };

export interface IdentityProviderConfig {
  /** The required `iss` claim. */
  issuer: string;
  keys: ProviderKeys;
  /** Accepted `aud` values; empty → `aud` is not checked. */
  audience: string[];
  /** Accepted `azp` values (Clerk: your front ends' origins; Auth0: client ids); empty → `azp` is not checked. */
  authorizedParties: string[];
}

export interface AuthConfig {
  /** Null → local mode: only tokens minted by `breakline token mint` with the local key are trusted. */
  provider: IdentityProviderConfig | null;
  /** Local mode's signing key file (auth/local-key): AUTH_LOCAL_KEY_FILE, else STATE_DIR/auth/session-key.json. */
  localKeyFile: string;
  /** The session-token claim that carries the tier (absent or unknown → free). */
  tierClaim: string;
  /** Origins besides the server's own that may send cookie-authenticated writes (CSRF rule). */
  allowedOrigins: string[];
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
/** Quotas by tier, each at least the one under it (`<name>_FREE` ≤ `<name>_PRO` ≤ `<name>_ENTERPRISE`). */
function byTier(name: string, quotas: Record<Tier, number>): Record<Tier, number> {
  for (const [lower, higher] of [[TIERS[0], TIERS[1]], [TIERS[1], TIERS[2]]] as const) {
    if (quotas[higher] < quotas[lower]) {
      throw new ConfigError([`${name}_${higher.toUpperCase()}: must not be below ${name}_${lower.toUpperCase()} (${quotas[lower]})`]);
    }
  }
  return quotas;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(envSchema.shape)
      .map((key) => [key, env[key]] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  if (e.MARKET_DATA_PROVIDER === 'csv' && !e.CSV_DIR) {
    throw new ConfigError(['CSV_DIR: required when MARKET_DATA_PROVIDER=csv']);
  }
  const missingKeys = [
    ...(e.MARKET_DATA_PROVIDER === 'alpaca' ? (['ALPACA_KEY_ID', 'ALPACA_SECRET_KEY'] as const).filter((name) => !e[name]) : []),
    ...(e.MARKET_DATA_PROVIDER === 'polygon' && !e.POLYGON_API_KEY ? ['POLYGON_API_KEY'] : []),
  ];
  if (missingKeys.length) throw new ConfigError(missingKeys.map((name) => `${name}: required when MARKET_DATA_PROVIDER=${e.MARKET_DATA_PROVIDER} (the ${e.MARKET_DATA_PROVIDER} provider's key)`));
  const tierQuotas = byTier('RATE_LIMIT_QUOTA', { free: e.RATE_LIMIT_QUOTA_FREE, pro: e.RATE_LIMIT_QUOTA_PRO, enterprise: e.RATE_LIMIT_QUOTA_ENTERPRISE });
  const explainTierQuotas = byTier('EXPLAIN_RATE_LIMIT_QUOTA', {
    free: e.EXPLAIN_RATE_LIMIT_QUOTA_FREE,
    pro: e.EXPLAIN_RATE_LIMIT_QUOTA_PRO,
    enterprise: e.EXPLAIN_RATE_LIMIT_QUOTA_ENTERPRISE,
  });
  return {
    port: e.PORT,
    host: e.HOST,
    stateDir: e.STATE_DIR,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DB_POOL_MAX,
    redisUrl: e.REDIS_URL,
    marketDataProvider: e.MARKET_DATA_PROVIDER,
    csvDir: e.CSV_DIR,
    syntheticSeed: e.SYNTHETIC_SEED,
    yahoo: { baseUrl: e.YAHOO_BASE_URL.replace(/\/+$/, ''), ratePerSecond: e.YAHOO_RATE_PER_SECOND },
    alpaca:
      e.MARKET_DATA_PROVIDER === 'alpaca'
        ? {
            keyId: e.ALPACA_KEY_ID!,
            secretKey: e.ALPACA_SECRET_KEY!,
            feed: e.ALPACA_FEED,
            adjustment: e.ALPACA_ADJUSTMENT,
            dataUrl: e.ALPACA_DATA_URL.replace(/\/+$/, ''),
            streamUrl: e.ALPACA_STREAM_URL.replace(/\/+$/, ''),
            ratePerMinute: e.ALPACA_RATE_PER_MINUTE,
            barsFrom: e.ALPACA_BARS_FROM,
          }
        : null,
    polygon:
      e.MARKET_DATA_PROVIDER === 'polygon'
        ? { apiKey: e.POLYGON_API_KEY!, baseUrl: e.POLYGON_BASE_URL.replace(/\/+$/, ''), streamUrl: e.POLYGON_STREAM_URL.replace(/\/+$/, ''), ratePerMinute: e.POLYGON_RATE_PER_MINUTE, barsFrom: e.POLYGON_BARS_FROM }
        : null,
    live: { stream: e.LIVE_STREAM === 'on', extendedHours: e.LIVE_EXTENDED_HOURS === 'on', silentSeconds: e.LIVE_SILENT_SECONDS, tradeSymbols: e.LIVE_TRADE_SYMBOLS ?? null },
    edgar: e.EDGAR_USER_AGENT ? { userAgent: e.EDGAR_USER_AGENT, baseUrl: e.EDGAR_BASE_URL.replace(/\/+$/, ''), dataUrl: e.EDGAR_DATA_URL.replace(/\/+$/, '') } : null,
    finra: e.FINRA_SHORT_INTEREST === 'on' ? { baseUrl: e.FINRA_BASE_URL.replace(/\/+$/, '') } : null,
    apiDefaultVersion: e.API_DEFAULT_VERSION,
    rateLimit: { quota: e.RATE_LIMIT_QUOTA, costlyQuota: e.RATE_LIMIT_COSTLY_QUOTA, windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS, tierQuotas },
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    auth: {
      provider: identityProvider(e),
      localKeyFile: e.AUTH_LOCAL_KEY_FILE ?? join(e.STATE_DIR, 'auth', 'session-key.json'),
      tierClaim: e.AUTH_TIER_CLAIM,
      allowedOrigins: e.AUTH_ALLOWED_ORIGINS ?? [],
    },
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    logLevel: e.LOG_LEVEL,
    macroCalendar: e.MACRO_CALENDAR === 'on',
    barsCacheTtlSeconds: e.BARS_CACHE_TTL_SECONDS,
    poolSize: e.POOL_SIZE ?? navigator.hardwareConcurrency ?? 2,
    scanIntervalSeconds: e.SCAN_INTERVAL_SECONDS,
    replayOnBoot: e.REPLAY_ON_BOOT === 'auto' ? e.MARKET_DATA_PROVIDER === 'synthetic' : e.REPLAY_ON_BOOT === 'on',
    healthCheckIntervalSeconds: e.HEALTH_CHECK_INTERVAL_SECONDS,
    shutdown: { drainMs: Math.round(e.SHUTDOWN_DRAIN_SECONDS * 1000), deadlineMs: Math.round(e.SHUTDOWN_DRAIN_SECONDS * 1000) + SHUTDOWN_AFTER_DRAIN_MS },
    ai: aiConfig(e),
    explain: { quota: e.EXPLAIN_RATE_LIMIT_QUOTA, tierQuotas: explainTierQuotas, windowSeconds: e.EXPLAIN_RATE_LIMIT_WINDOW_SECONDS, bodyLimitBytes: e.EXPLAIN_BODY_LIMIT_BYTES },
    account: {
      caps: { watchlists: e.WATCHLISTS_PER_TIER, watchlistSymbols: e.WATCHLIST_SYMBOLS_PER_TIER, alertRules: e.ALERT_RULES_PER_TIER, apiKeys: e.API_KEYS_PER_TIER },
      bodyLimitBytes: e.ACCOUNT_BODY_LIMIT_BYTES,
      idempotencyTtlMs: Math.round(e.IDEMPOTENCY_KEY_TTL_HOURS * 3_600_000),
      webhooks: {
        allowPrivate: e.ALERT_WEBHOOK_ALLOW_PRIVATE,
        caFile: e.ALERT_WEBHOOK_CA_FILE,
        timeoutMs: e.ALERT_WEBHOOK_TIMEOUT_MS,
        maxAttempts: e.ALERT_WEBHOOK_MAX_ATTEMPTS,
        backoffMs: Math.round(e.ALERT_WEBHOOK_BACKOFF_SECONDS * 1000),
      },
      exportTtlMs: Math.round(e.EXPORTS_TTL_HOURS * 3_600_000),
      community: { postQuota: e.COMMUNITY_POST_QUOTA, postWindowSeconds: e.COMMUNITY_POST_WINDOW_SECONDS, hideAfterReports: e.COMMUNITY_HIDE_AFTER_REPORTS },
      adminUserIds: e.ADMIN_USER_IDS ?? [],
    },
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      batchLimit: e.GRAPHQL_BATCH_LIMIT,
      maxCost: e.GRAPHQL_MAX_COST_PER_TIER,
      introspection: e.GRAPHQL_INTROSPECTION,
      sse: { reservationSeconds: e.GRAPHQL_SSE_RESERVATION_SECONDS, maxReservations: e.GRAPHQL_SSE_MAX_RESERVATIONS, maxReservationsPerClient: e.GRAPHQL_SSE_MAX_RESERVATIONS_PER_CLIENT },
    },
    stream: {
      pingMs: e.SSE_PING_MS,
      retryMs: e.SSE_RETRY_MS,
      replaySize: e.SSE_REPLAY_SIZE,
      replayMaxAgeSeconds: e.SSE_REPLAY_MAX_AGE_SECONDS,
      quoteIntervalMs: e.SSE_QUOTE_INTERVAL_MS,
      quotePollSeconds: e.SSE_QUOTE_POLL_SECONDS,
      maxConnections: e.SSE_MAX_CONNECTIONS,
      maxConnectionsPerClient: e.SSE_MAX_CONNECTIONS_PER_CLIENT,
      maxSymbols: e.SSE_MAX_SYMBOLS,
      queueBytes: e.SSE_QUEUE_KB * 1024,
      stallSeconds: e.SSE_STALL_SECONDS,
    },
  };
}

/**
 * The model provider: explicit `AI_PROVIDER`, else whichever provider's
 * variables are set. A provider chosen without its key or model is not an
 * error at boot: /api/explain answers 503 naming the missing variable.
 */
function aiConfig(e: Env): AiConfig {
  const provider = e.AI_PROVIDER ?? (e.ANTHROPIC_API_KEY ? 'anthropic' : e.OPENAI_BASE_URL ? 'openai' : 'off');
  const common = {
    responseFormat: e.OPENAI_RESPONSE_FORMAT,
    timeoutMs: e.AI_TIMEOUT_MS,
    maxOutputTokens: e.AI_MAX_OUTPUT_TOKENS,
    breaker: { failures: e.AI_BREAKER_FAILURES, halfOpenAfterMs: Math.round(e.AI_BREAKER_HALF_OPEN_SECONDS * 1000) },
  };
  const trim = (url: string) => url.replace(/\/+$/, '');
  if (provider === 'anthropic') {
    const missing = e.ANTHROPIC_API_KEY ? undefined : 'no model API key: set ANTHROPIC_API_KEY';
    return { provider, baseUrl: trim(e.ANTHROPIC_BASE_URL), apiKey: e.ANTHROPIC_API_KEY, model: missing ? null : e.ANTHROPIC_MODEL, unavailableReason: missing, ...common };
  }
  if (provider === 'openai') {
    const missing = !e.OPENAI_BASE_URL ? 'no model endpoint: set OPENAI_BASE_URL' : !e.OPENAI_MODEL ? 'no model named: set OPENAI_MODEL' : undefined;
    return { provider, baseUrl: trim(e.OPENAI_BASE_URL ?? ''), apiKey: e.OPENAI_API_KEY, model: missing ? null : e.OPENAI_MODEL!, unavailableReason: missing, ...common };
  }
  return { provider, baseUrl: '', model: null, unavailableReason: 'no language model is configured (AI_PROVIDER=off): set ANTHROPIC_API_KEY, or OPENAI_BASE_URL and OPENAI_MODEL', ...common };
}

/** The identity provider named by the AUTH_* variables: an issuer and exactly one key source, or neither. */
function identityProvider(e: Env): IdentityProviderConfig | null {
  const sources: ProviderKeys[] = [];
  if (e.AUTH_JWKS_URL) sources.push({ source: 'jwks-url', url: e.AUTH_JWKS_URL });
  if (e.AUTH_JWKS_FILE) sources.push({ source: 'jwks-file', path: e.AUTH_JWKS_FILE });
  if (e.AUTH_PUBLIC_KEY) sources.push({ source: 'pem', pem: e.AUTH_PUBLIC_KEY });
  if (sources.length > 1) throw new ConfigError(['AUTH_JWKS_URL, AUTH_JWKS_FILE, AUTH_PUBLIC_KEY: set exactly one source of the provider\'s keys']);
  const [keys] = sources;
  if (!keys) {
    if (e.AUTH_ISSUER) throw new ConfigError(['AUTH_ISSUER: needs the provider\'s keys (AUTH_JWKS_URL, AUTH_JWKS_FILE or AUTH_PUBLIC_KEY)']);
    return null;
  }
  if (!e.AUTH_ISSUER) throw new ConfigError([`AUTH_ISSUER: required with ${keys.source === 'jwks-url' ? 'AUTH_JWKS_URL' : keys.source === 'jwks-file' ? 'AUTH_JWKS_FILE' : 'AUTH_PUBLIC_KEY'} (the provider's iss, e.g. https://clerk.your-app.com)`]);
  return { issuer: e.AUTH_ISSUER, keys, audience: e.AUTH_AUDIENCE ?? [], authorizedParties: e.AUTH_AUTHORIZED_PARTIES ?? [] };
}

/** Where the embedded database lives under `STATE_DIR`. */
export function pgliteDataDir(config: Config): string {
  return join(config.stateDir, 'pgdata');
}
