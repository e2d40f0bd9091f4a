/**
 * @module config-schema
 * The environment Breakline reads: every variable, its type, range and default,
 * as one zod object. Only src/config parses it (`loadConfig`), once.
 */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import type { Tier } from './domain/tiers';

export const API_VERSIONS = ['1.0.0', '1.1.0'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes' || v === 'on');

const onOff = z.enum(['on', 'off']);
const httpUrl = z.string().regex(/^https?:\/\//, 'must be an http(s) URL');
const wsUrl = z.string().regex(/^wss?:\/\//, 'must be a ws(s):// URL');

/** A comma-separated list (blank items dropped). */
const list = z.string().transform((v) => v.split(',').map((item) => item.trim()).filter(Boolean));

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** JWKS are fetched over https only (keys from a tampered fetch would sign anything), plain http only on loopback (tests, sidecars). */
const jwksUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  } catch {
    return false;
  }
}, 'must be an https:// URL (http:// only on loopback)');

/** Three comma-separated counts, for the tiers free, pro and enterprise, each at least the one before. */
const perTier = z
  .string()
  .regex(/^\s*\d+\s*,\s*\d+\s*,\s*\d+\s*$/, 'must be three counts for free,pro,enterprise, e.g. 3,20,100')
  .transform((v) => v.split(',').map((n) => Number(n.trim())))
  .refine(([free, pro, enterprise]) => free! >= 1 && free! <= pro! && pro! <= enterprise!, 'each count must be ≥ 1 and not below the one before (free ≤ pro ≤ enterprise)')
  .transform(([free, pro, enterprise]): Record<Tier, number> => ({ free: free!, pro: pro!, enterprise: enterprise! }));

/** Origins `scheme://host[:port]`, normalised as the browser sends them in `Origin`. */
const origins = list.pipe(
  z.array(
    z.string().transform((value, ctx) => {
      try {
        const origin = new URL(value).origin;
        if (origin !== 'null') return origin;
      } catch {}
      ctx.addIssue({ code: 'custom', message: `'${value}' is not an origin like https://app.example.com` });
      return z.NEVER;
    }),
  ),
);

/**
 * Which hops in front of the server are trusted proxies (src/plugins/client-address walks them):
 * hop 0 is the socket peer, hops 1, 2, … the `X-Forwarded-For` entries from the right.
 */
export interface ProxyTrust {
  /** Hops trusted at most, counted from the socket peer (Infinity: as many as are in `ranges`). */
  hops: number;
  /** The CIDRs a trusted hop's address must be in; null: any address. */
  ranges: readonly string[] | null;
  /** Set by the old boolean `TRUST_PROXY=true`: one hop on a loopback or private address (the boot log warns). */
  legacy: boolean;
}

/** Express's named ranges (proxy-addr), the names `TRUST_PROXY` accepts beside addresses and CIDRs. */
export const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** An IPv4 dotted quad or an IPv6 address (not ipaddr.js's lenient IPv4 forms such as `127.1`). */
const strictAddress = (text: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(':') && ipaddr.IPv6.isValid(text));

/** The most hops a count may name: more proxies than this in one chain is a mistake, not a topology. */
const MAX_HOPS = 16;

/**
 * `TRUST_PROXY`: off (`false`, `0`, unset), a hop count (`1`, `2`: that many proxies in front, whatever
 * their addresses), or the proxies' addresses (comma-separated IPs, CIDRs and the names of
 * {@link NAMED_RANGES}, any number of hops). `true` (the old boolean) reads as one hop on a loopback or
 * private address: safe when the proxy sits on such an address and clients cannot reach the server
 * from one directly.
 */
const proxyTrust = z
  .string()
  .trim()
  .transform((value, ctx): ProxyTrust | null => {
    const lower = value.toLowerCase();
    if (['', 'false', '0', 'no', 'off'].includes(lower)) return null;
    if (['true', 'yes', 'on'].includes(lower)) return { hops: 1, ranges: Object.values(NAMED_RANGES).flat(), legacy: true };
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops <= MAX_HOPS) return { hops, ranges: null, legacy: false };
      ctx.addIssue({ code: 'custom', message: `a hop count must be at most ${MAX_HOPS}` });
      return z.NEVER;
    }
    const ranges: string[] = [];
    for (const item of value.split(',').map((entry) => entry.trim()).filter(Boolean)) {
      const named = NAMED_RANGES[item.toLowerCase()];
      if (named) ranges.push(...named);
      else if (strictAddress(item.split('/')[0]!) && ipaddr.isValidCIDR(item)) ranges.push(item);
      else if (strictAddress(item)) ranges.push(`${item}/${item.includes(':') ? 128 : 32}`);
      else {
        ctx.addIssue({ code: 'custom', message: `'${item}' is not an address, a CIDR or one of ${Object.keys(NAMED_RANGES).join(', ')} (or give a hop count, or true/false)` });
        return z.NEVER;
      }
    }
    return { hops: Number.POSITIVE_INFINITY, ranges, legacy: false };
  });

export const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  STATE_DIR: z.string().min(1).default('.breakline'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Connections each instance's PostgreSQL client may open (its cluster locks hold one more). */
  DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  MARKET_DATA_PROVIDER: z.enum(['synthetic', 'csv', 'yahoo', 'alpaca', 'polygon']).default('synthetic'),
  CSV_DIR: z.string().min(1).optional(),
  SYNTHETIC_SEED: z.coerce.number().int().default(42),
  YAHOO_BASE_URL: z.string().regex(/^https?:\/\//, 'must be an http(s) URL').default('https://query1.finance.yahoo.com'),
  YAHOO_RATE_PER_SECOND: z.coerce.number().positive().max(100).default(5),
  /** Alpaca Market Data v2 (`MARKET_DATA_PROVIDER=alpaca`): the keys (never logged), the feed of the plan, and the hosts. */
  ALPACA_KEY_ID: z.string().min(1).optional(),
  ALPACA_SECRET_KEY: z.string().min(1).optional(),
  ALPACA_FEED: z.enum(['iex', 'sip']).default('iex'),
  ALPACA_ADJUSTMENT: z.enum(['raw', 'split', 'dividend', 'all']).default('split'),
  ALPACA_DATA_URL: httpUrl.default('https://data.alpaca.markets'),
  ALPACA_STREAM_URL: wsUrl.default('wss://stream.data.alpaca.markets'),
  ALPACA_RATE_PER_MINUTE: z.coerce.number().positive().max(100_000).default(200),
  /** Where the live minute bars come from: the stream's `bars`, or the universe's trades aggregated by us (Alpaca's trade-condition rule). */
  ALPACA_BARS_FROM: z.enum(['bars', 'trades']).default('bars'),
  POLYGON_BARS_FROM: z.enum(['bars', 'trades']).default('bars'),
  /** Polygon, now Massive (`MARKET_DATA_PROVIDER=polygon`): the key (never logged) and the hosts (the vendor renamed them). */
  POLYGON_API_KEY: z.string().min(1).optional(),
  POLYGON_BASE_URL: httpUrl.default('https://api.massive.com'),
  POLYGON_STREAM_URL: wsUrl.default('wss://socket.massive.com'),
  POLYGON_RATE_PER_MINUTE: z.coerce.number().positive().max(100_000).default(5),
  /** The vendor's WebSocket stream (alpaca, polygon): minute bars rolled up live, scans on bar closes, quotes pushed. */
  LIVE_STREAM: onOff.default('on'),
  /** Roll pre-market and after-hours minutes (04:00–20:00 New York) into the bars too. */
  LIVE_EXTENDED_HOURS: onOff.default('off'),
  /** No trade or bar for this long during a session: the stream is taken for dead and reconnected. */
  LIVE_SILENT_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** Symbols whose trades are streamed at most (default: the plan's, Alpaca iex 30; unset for sip and polygon: no limit). */
  LIVE_TRADE_SYMBOLS: z.coerce.number().int().min(0).max(100_000).optional(),
  /** SEC EDGAR as the source of insiders, filings and shares outstanding; the SEC requires a contact. */
  EDGAR_USER_AGENT: z.string().regex(/\S+@\S+\.\S+/, "must name you and a contact e-mail, e.g. 'Acme Research ops@acme.example' (SEC fair-access policy)").optional(),
  EDGAR_BASE_URL: z.string().regex(/^https?:\/\//, 'must be an http(s) URL').default('https://www.sec.gov'),
  EDGAR_DATA_URL: z.string().regex(/^https?:\/\//, 'must be an http(s) URL').default('https://data.sec.gov'),
  FINRA_SHORT_INTEREST: onOff.default('off'),
  FINRA_BASE_URL: z.string().regex(/^https?:\/\//, 'must be an http(s) URL').default('https://cdn.finra.org'),
  API_DEFAULT_VERSION: z.enum(API_VERSIONS).default('1.0.0'),
  RATE_LIMIT_QUOTA: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_QUOTA_FREE: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_QUOTA_PRO: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_QUOTA_ENTERPRISE: z.coerce.number().int().min(1).default(3000),
  /** Namespace of every key Breakline writes to Redis (deployments or test runs sharing one Redis stay apart). */
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('breakline:'),
  /** The identity provider: its issuer and one source of its public keys. Unset → local mode (`breakline token mint`). */
  AUTH_ISSUER: z.string().min(1).optional(),
  AUTH_JWKS_URL: jwksUrl.optional(),
  AUTH_JWKS_FILE: z.string().min(1).optional(),
  AUTH_PUBLIC_KEY: z
    .string()
    .transform((pem) => pem.replaceAll('\\n', '\n').trim())
    .refine((pem) => /^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----$/.test(pem), 'must be a PEM public key (-----BEGIN PUBLIC KEY-----)')
    .optional(),
  AUTH_AUDIENCE: list.optional(),
  AUTH_AUTHORIZED_PARTIES: list.optional(),
  AUTH_TIER_CLAIM: z.string().min(1).default('tier'),
  /** Local mode's session signing key (a private JWK, mode 0600): one file every instance of a deployment mounts. Unset → STATE_DIR/auth/session-key.json. */
  AUTH_LOCAL_KEY_FILE: z.string().min(1).optional(),
  AUTH_ALLOWED_ORIGINS: origins.optional(),
  /** Origins a browser may call the API from (CORS): `*`, or a comma-separated list; unset → same origin only. */
  CORS_ORIGINS: z.union([z.string().trim().pipe(z.literal('*')), origins]).optional(),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Requests per window to the costly routes (replays, universe scans, verification, the CSV ledger), on top of the ordinary quota. */
  RATE_LIMIT_COSTLY_QUOTA: z.coerce.number().int().min(1).default(10),
  TRUST_PROXY: z.string().default('false').pipe(proxyTrust),
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
  /**
   * Seconds a stopping server goes on serving with /readyz at 503, so balancers take it out before it closes its
   * listener (cli/shutdown). 2: HAProxy checking every 1 s with `fall 1` marks it down within ~1 s, and 1 s more
   * covers a check in flight; in-flight work then has 3 s, so the process exits within DESIGN's 5 s.
   */
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(2),
  /** Seconds between background health rounds (probes answer from the last one). */
  HEALTH_CHECK_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** Which language model explains signals; unset: anthropic with ANTHROPIC_API_KEY, openai with OPENAI_BASE_URL, else off. */
  AI_PROVIDER: z.enum(['anthropic', 'openai', 'off']).optional(),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: httpUrl.default('https://api.anthropic.com'),
  ANTHROPIC_MODEL: z.string().min(1).default('claude-sonnet-4-5'),
  /** An OpenAI-compatible chat-completions server (llama.cpp, vLLM, Ollama, OpenAI), up to and including `/v1`. */
  OPENAI_BASE_URL: httpUrl.optional(),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_MODEL: z.string().min(1).optional(),
  /** How the OpenAI-compatible server is asked for JSON: a JSON schema (structured output), JSON mode, or only the prompt. */
  OPENAI_RESPONSE_FORMAT: z.enum(['json_schema', 'json_object', 'off']).default('json_schema'),
  AI_TIMEOUT_MS: z.coerce.number().int().min(10).max(600_000).default(20_000),
  AI_MAX_OUTPUT_TOKENS: z.coerce.number().int().min(64).max(8192).default(700),
  /** Consecutive failed or timed-out model calls that open the circuit. */
  AI_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  /** Seconds the circuit stays open before one probe request is let through. */
  AI_BREAKER_HALF_OPEN_SECONDS: z.coerce.number().positive().max(86_400).default(30),
  /** The explain endpoints' own, stricter quota per client IP and window (each explanation may cost a model call)… */
  EXPLAIN_RATE_LIMIT_QUOTA: z.coerce.number().int().min(1).default(10),
  /** …and per user or API key of each tier. */
  EXPLAIN_RATE_LIMIT_QUOTA_FREE: z.coerce.number().int().min(1).default(10),
  EXPLAIN_RATE_LIMIT_QUOTA_PRO: z.coerce.number().int().min(1).default(60),
  EXPLAIN_RATE_LIMIT_QUOTA_ENTERPRISE: z.coerce.number().int().min(1).default(300),
  EXPLAIN_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Largest POST /api/explain body accepted, in bytes. */
  EXPLAIN_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(65_536),
  /** Account features (issue 17): caps per tier (free,pro,enterprise). */
  WATCHLISTS_PER_TIER: perTier.prefault('3,20,100'),
  WATCHLIST_SYMBOLS_PER_TIER: perTier.prefault('25,100,500'),
  ALERT_RULES_PER_TIER: perTier.prefault('5,50,500'),
  /** Active (unrevoked) API keys a user may hold, per tier; the operator's `breakline keys create` is not capped. */
  API_KEYS_PER_TIER: perTier.prefault('5,25,100'),
  /** Largest JSON body of an account write (watchlists, alert rules, journal, exports, community), in bytes. */
  ACCOUNT_BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(1_048_576).default(32_768),
  /** How long a stored `Idempotency-Key` answer is kept. */
  IDEMPOTENCY_KEY_TTL_HOURS: z.coerce.number().positive().max(720).default(24),
  /** Webhook addresses that resolve to loopback, private, link-local (or other non-public) ranges are refused unless this is set (tests, sidecars). */
  ALERT_WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /** PEM file of extra CA certificates webhook receivers may be signed by (an internal CA), besides the public roots. */
  ALERT_WEBHOOK_CA_FILE: z.string().min(1).optional(),
  ALERT_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** Attempts per delivery before it is given up as failed. */
  ALERT_WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  /** Delay before the second attempt; each later one waits twice the one before. */
  ALERT_WEBHOOK_BACKOFF_SECONDS: z.coerce.number().positive().max(3600).default(30),
  /** How long a done export can be downloaded. */
  EXPORTS_TTL_HOURS: z.coerce.number().positive().max(8760).default(24),
  /** Community posts a user may publish per window. */
  COMMUNITY_POST_QUOTA: z.coerce.number().int().min(1).default(10),
  COMMUNITY_POST_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
  /** Reports from different users that hide a post until an admin looks; 0 → never hidden by reports. */
  COMMUNITY_HIDE_AFTER_REPORTS: z.coerce.number().int().min(0).default(5),
  /** User ids (session `sub`) with the admin role: they moderate the community feed. */
  ADMIN_USER_IDS: list.optional(),
  /** GraphQL (/api/graphql): deepest selection, most aliases, most operations in one batch, largest cost per tier (free,pro,enterprise; anonymous as free), introspection. */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(50).default(10),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).max(1000).default(15),
  GRAPHQL_BATCH_LIMIT: z.coerce.number().int().min(1).max(100).default(10),
  GRAPHQL_MAX_COST_PER_TIER: perTier.prefault('2000,10000,50000'),
  GRAPHQL_INTROSPECTION: bool.default(true),
  /** graphql-sse single connection mode (/api/graphql/stream): how long a stream reserved by PUT waits to be opened, and how many unopened ones an instance and one client hold. */
  GRAPHQL_SSE_RESERVATION_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  GRAPHQL_SSE_MAX_RESERVATIONS: z.coerce.number().int().min(1).default(1000),
  GRAPHQL_SSE_MAX_RESERVATIONS_PER_CLIENT: z.coerce.number().int().min(1).default(16),
  /** The realtime stream (GET /api/stream): keep-alive comments, reconnection delay, replay buffer, quotes, caps. */
  SSE_PING_MS: z.coerce.number().int().min(0).default(15_000),
  SSE_RETRY_MS: z.coerce.number().int().min(0).default(3_000),
  SSE_REPLAY_SIZE: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  SSE_REPLAY_MAX_AGE_SECONDS: z.coerce.number().int().min(1).default(3_600),
  SSE_QUOTE_INTERVAL_MS: z.coerce.number().int().min(50).default(1_000),
  SSE_QUOTE_POLL_SECONDS: z.coerce.number().int().min(1).default(5),
  SSE_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(10_000),
  SSE_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).default(32),
  SSE_MAX_SYMBOLS: z.coerce.number().int().min(1).max(500).default(50),
  SSE_QUEUE_KB: z.coerce.number().int().min(1).default(64),
  SSE_STALL_SECONDS: z.coerce.number().int().min(1).default(30),
});

/** The parsed environment. */
export type Env = z.infer<typeof envSchema>;
