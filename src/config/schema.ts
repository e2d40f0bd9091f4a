/**
 * @module config/schema
 * The environment Breakline reads, as one zod object nested by domain: each leaf is one variable
 * (`variable(NAME, schema, { default, doc })`), and the parsed object is the `Config` every service
 * receives (`z.infer`, no parallel interface). Adding a variable is one `variable(…)` line here; then
 * `bun run scripts/config-table.ts --write` rewrites the README's table from the `doc`s.
 * Rules between domains (a provider's keys, `REPLAY_ON_BOOT=auto`, the local key under `STATE_DIR`)
 * are in src/config (`loadConfig`), the only reader.
 */
import { z } from 'zod';
import { aiGroup } from './ai';
import { authGroup } from './auth';
import { API_VERSIONS, bool, httpUrl, list, onOff, origins, perTier, proxyTrust, tierQuotas, variable, wsUrl } from './fields';

export { API_VERSIONS, NAMED_RANGES, type ApiVersion, type ProxyTrust } from './fields';

/**
 * What a stop has after the drain, for the streams, in-flight requests, background jobs and closing the
 * database: the default drain (2 s) and this make DESIGN's "exit within 5 s".
 */
export const SHUTDOWN_AFTER_DRAIN_MS = 3000;

const int = () => z.coerce.number().int();
const hoursToMs = (hours: number) => Math.round(hours * 3_600_000);
const secondsToMs = (seconds: number) => Math.round(seconds * 1000);

export const configSchema = z.object({
  port: variable('PORT', int().min(0).max(65535), { default: '3000', doc: 'HTTP port' }),
  host: variable('HOST', z.string().min(1), { default: '127.0.0.1', doc: 'interface to listen on (loopback unless told otherwise; the Docker image sets `0.0.0.0`)' }),
  stateDir: variable('STATE_DIR', z.string().min(1), { default: '.breakline', doc: 'holds the embedded database (`pgdata/`) and local keys' }),
  databaseUrl: variable('DATABASE_URL', z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional(), {
    doc: '`postgres://…` of a PostgreSQL server; unset → PGlite in `STATE_DIR`',
  }),
  databasePoolMax: variable('DB_POOL_MAX', int().min(1).max(1000), {
    default: '10',
    doc: "connections each instance's PostgreSQL client may open (its cluster locks hold one more); instances × (`DB_POOL_MAX` + 1) must stay under the server's `max_connections`",
  }),
  redisUrl: variable('REDIS_URL', z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(), {
    doc: '`redis://…`; shared rate-limit counters, per-client stream caps, GraphQL persisted queries, and the carrier of stream events between instances (the database stays their source); unset → per instance',
  }),
  redisKeyPrefix: variable('REDIS_KEY_PREFIX', z.string().min(1).max(100), {
    default: 'breakline:',
    doc: "prefix of every Redis key and stream the service touches (`rl:…` counters, `stream`, `streams:…` caps, `apq:…` queries): deployments sharing one Redis see none of each other's events or counts",
  }),
  logLevel: variable('LOG_LEVEL', z.enum(['debug', 'info', 'warn', 'error', 'silent']), {
    default: 'info',
    doc: '`debug`, `info`, `warn`, `error`, `silent`; pino JSON lines on stderr, one access line per request at `info` ([operations](docs/operations.md#logs-and-metrics))',
  }),
  apiDefaultVersion: variable('API_DEFAULT_VERSION', z.enum(API_VERSIONS), { default: '1.0.0', doc: 'contract used when a request sends no `API-Version` (`1.0.0` or `1.1.0`)' }),
  trustProxy: variable('TRUST_PROXY', z.string().pipe(proxyTrust), {
    default: 'false',
    doc: 'the proxies in front, trusted to name the client in `X-Forwarded-For`: a hop count (`1`, `2`) or their addresses/CIDRs, comma-separated (`loopback`, `linklocal`, `uniquelocal` allowed); the client is the right-most entry that is not one of them. `false`: the socket address',
  }),
  corsOrigins: variable('CORS_ORIGINS', z.union([z.string().trim().pipe(z.literal('*')), origins]).optional(), {
    doc: 'origins a browser may call the API from: `*` (any, without cookies) or comma-separated origins (echoed with `Vary: Origin`; cookies allowed for those also in `AUTH_ALLOWED_ORIGINS`); unset → no CORS headers. Preflights are answered 204 (403 from other origins)',
  }),

  marketDataProvider: variable('MARKET_DATA_PROVIDER', z.enum(['synthetic', 'csv', 'yahoo', 'alpaca', 'polygon']), {
    default: 'synthetic',
    doc: '`synthetic` (seeded simulator), `csv` (your own files), `yahoo` (Yahoo Finance chart/quote/options JSON), `alpaca` or `polygon` (keyed vendors with a live WebSocket stream: [live market data](docs/market-data.md#live-market-data-alpaca-and-polygon))',
  }),
  csvDir: variable('CSV_DIR', z.string().min(1).optional(), { doc: 'directory of per-symbol OHLCV files, required with `csv`' }),
  syntheticSeed: variable('SYNTHETIC_SEED', int(), { default: '42', doc: 'seed of the synthetic market; same seed → same data' }),
  yahoo: z.object({
    baseUrl: variable('YAHOO_BASE_URL', httpUrl, { default: 'https://query1.finance.yahoo.com', doc: 'where the `yahoo` provider asks (any server speaking the same JSON)' }),
    ratePerSecond: variable('YAHOO_RATE_PER_SECOND', z.coerce.number().positive().max(100), { default: '5', doc: 'request rate towards Yahoo' }),
  }),
  /** Read always; src/config keeps it only when MARKET_DATA_PROVIDER=alpaca (both keys are then required). */
  alpaca: z.object({
    keyId: variable('ALPACA_KEY_ID', z.string().min(1).optional(), { doc: "Alpaca's key id, required with `alpaca` (sent in headers and the stream's auth message only; never logged)" }),
    secretKey: variable('ALPACA_SECRET_KEY', z.string().min(1).optional(), { doc: "Alpaca's secret key, required with `alpaca` (never logged)" }),
    feed: variable('ALPACA_FEED', z.enum(['iex', 'sip']), { default: 'iex', doc: '`iex` (free plan) or `sip` (paid: the consolidated tape)' }),
    adjustment: variable('ALPACA_ADJUSTMENT', z.enum(['raw', 'split', 'dividend', 'all']), {
      default: 'split',
      doc: "`raw`, `split`, `dividend` or `all`: corporate-action adjustment of Alpaca's bars (`split` matches the other providers)",
    }),
    dataUrl: variable('ALPACA_DATA_URL', httpUrl, { default: 'https://data.alpaca.markets', doc: "Alpaca's REST host" }),
    streamUrl: variable('ALPACA_STREAM_URL', wsUrl, { default: 'wss://stream.data.alpaca.markets', doc: "Alpaca's stream host (the feed is appended: `/v2/iex`)" }),
    ratePerMinute: variable('ALPACA_RATE_PER_MINUTE', z.coerce.number().positive().max(100_000), { default: '200', doc: "REST requests a minute (the Basic plan's limit)" }),
    barsFrom: variable('ALPACA_BARS_FROM', z.enum(['bars', 'trades']), {
      default: 'bars',
      doc: "`trades` → live minute bars are made from the universe's trades (Alpaca's trade-condition rule) instead of the stream's `bars`; windows then close 10 s later",
    }),
  }),
  /** Read always; src/config keeps it only when MARKET_DATA_PROVIDER=polygon (the key is then required). */
  polygon: z.object({
    apiKey: variable('POLYGON_API_KEY', z.string().min(1).optional(), {
      doc: "Polygon's (Massive's) key, required with `polygon` (sent as `Authorization: Bearer` and in the stream's auth message only; never logged)",
    }),
    baseUrl: variable('POLYGON_BASE_URL', httpUrl, { default: 'https://api.massive.com', doc: "Polygon's REST host (`api.polygon.io` works too)" }),
    streamUrl: variable('POLYGON_STREAM_URL', wsUrl, {
      default: 'wss://socket.massive.com',
      doc: "Polygon's stocks-cluster host (`socket.polygon.io` works too; `wss://delayed.massive.com` for the 15-minute delayed feed)",
    }),
    ratePerMinute: variable('POLYGON_RATE_PER_MINUTE', z.coerce.number().positive().max(100_000), { default: '5', doc: "REST requests a minute (the free plan's limit; paid plans: raise it)" }),
    barsFrom: variable('POLYGON_BARS_FROM', z.enum(['bars', 'trades']), {
      default: 'bars',
      doc: "`trades` → live minute bars are made from the universe's `T.` trades (Polygon's condition ids mapped to the SIP letters, the same rule as Alpaca's) instead of `AM.` aggregates; windows then close 10 s later",
    }),
  }),
  /** The vendor stream of alpaca and polygon: minute bars rolled up live, scans on bar closes, quotes pushed. */
  live: z.object({
    stream: variable('LIVE_STREAM', onOff, { default: 'on', doc: '`off` → `alpaca`/`polygon` serve REST only: quotes are polled and scans run on the timer' }),
    extendedHours: variable('LIVE_EXTENDED_HOURS', onOff, { default: 'off', doc: '`on` → pre-market and after-hours minutes (04:00–20:00 New York) roll into the 1h/4h/daily bars' }),
    silentSeconds: variable('LIVE_SILENT_SECONDS', int().min(5).max(3600), { default: '60', doc: 'no trade or bar for this long during a session → the stream is reconnected' }),
    tradeSymbols: variable('LIVE_TRADE_SYMBOLS', int().min(0).max(100_000).optional().transform((v) => v ?? null), {
      shownDefault: "the plan's",
      doc: 'most symbols whose trades are streamed (Alpaca `iex`: 30; `sip` and Polygon: no limit); other watched symbols are quoted from their minute bars',
    }),
  }),
  /** Set when EDGAR_USER_AGENT is: SEC EDGAR answers insiders, filings and shares outstanding. */
  edgar: z
    .object({
      userAgent: variable('EDGAR_USER_AGENT', z.string().regex(/\S+@\S+\.\S+/, "must name you and a contact e-mail, e.g. 'Acme Research ops@acme.example' (SEC fair-access policy)").optional(), {
        doc: 'e.g. `Acme Research ops@acme.example`; set → SEC EDGAR answers insiders, filings and shares outstanding (the SEC requires a name and contact e-mail; ≤ 10 requests/s are sent)',
      }),
      baseUrl: variable('EDGAR_BASE_URL', httpUrl, { default: 'https://www.sec.gov', doc: 'EDGAR host of the tickers and the archive' }),
      dataUrl: variable('EDGAR_DATA_URL', httpUrl, { default: 'https://data.sec.gov', doc: 'EDGAR host of the submissions and company facts' }),
    })
    .transform(({ userAgent, ...hosts }) => (userAgent ? { userAgent, ...hosts } : null)),
  /** Set when FINRA_SHORT_INTEREST=on: FINRA files answer short interest. */
  finra: z
    .object({
      on: variable('FINRA_SHORT_INTEREST', onOff, { default: 'off', doc: "`on` → FINRA's bi-monthly short-interest files answer `/api/short-interest`" }),
      baseUrl: variable('FINRA_BASE_URL', httpUrl, { default: 'https://cdn.finra.org', doc: 'FINRA file host' }),
    })
    .transform(({ on, baseUrl }) => (on ? { baseUrl } : null)),
  macroCalendar: variable('MACRO_CALENDAR', onOff, { default: 'on', doc: '`off` removes the macro calendar (`/api/macro/calendar` answers 404)' }),
  barsCacheTtlSeconds: variable('BARS_CACHE_TTL_SECONDS', int().min(0), { default: '300', doc: 'how long fetched bars count as fresh before the provider is asked again' }),

  poolSize: variable('POOL_SIZE', int().min(1).max(64).optional().transform((v) => v ?? navigator.hardwareConcurrency ?? 2), {
    shownDefault: 'cores',
    doc: "worker threads that run scans and request-path work (piscina's live lane); background work (replays, universe backtests, the scorecard's record section) runs on a second lane of half as many threads (at least one) at niceness 10, so a live task never queues behind it",
  }),
  scanIntervalSeconds: variable('SCAN_INTERVAL_SECONDS', int().min(0), {
    default: '300',
    doc: 'scheduler pass interval: each timeframe is scanned when it has a new bar or its last run is this old; `0` turns the scheduler off',
  }),
  /** `auto` is settled in src/config: on for the synthetic market only. */
  replayOnBoot: variable('REPLAY_ON_BOOT', z.enum(['auto', 'on', 'off']), {
    default: 'auto',
    doc: '`on`: replay the last two years of the data source in the background after the first start (a scorecard at once, `/api/scorecard?source=replay`); `off`: don\'t; `auto`: on for the synthetic market only',
  }),
  healthCheckIntervalSeconds: variable('HEALTH_CHECK_INTERVAL_SECONDS', int().min(1).max(3600), { default: '10', doc: 'interval of the background health checks `/readyz` and `/api/health` answer from' }),
  /**
   * The stop sequence (cli/shutdown): serve `drainMs` with /readyz 503, then finish; exit by `deadlineMs` after the
   * signal whatever runs. 2 s: HAProxy checking every 1 s with `fall 1` marks it down within ~1 s, and 1 s more
   * covers a check in flight; in-flight work then has 3 s, so the process exits within DESIGN's 5 s.
   */
  shutdown: z
    .object({
      drainMs: variable('SHUTDOWN_DRAIN_SECONDS', z.coerce.number().min(0).max(300).transform(secondsToMs), {
        default: '2',
        doc: 'on SIGTERM, how long the server goes on serving with `/readyz` at 503 before it closes its listener; it exits within this + 3 s ([stopping](docs/operations.md#stopping-sigterm-sigint))',
      }),
    })
    .transform(({ drainMs }) => ({ drainMs, deadlineMs: drainMs + SHUTDOWN_AFTER_DRAIN_MS })),

  rateLimit: z.object({
    quota: variable('RATE_LIMIT_QUOTA', int().min(1), { default: '120', doc: 'requests per window for a client without a valid credential, counted per IP' }),
    tierQuotas: tierQuotas('RATE_LIMIT_QUOTA', { free: '120', pro: '600', enterprise: '3000' }, {
      free: 'requests per window per user of the `free` tier, sessions and API keys together',
      pro: 'the same for `pro`',
      enterprise: "the same for `enterprise` (each tier's quota must not be below the one under it)",
    }),
    costlyQuota: variable('RATE_LIMIT_COSTLY_QUOTA', int().min(1), {
      default: '10',
      doc: 'requests per client per window to the costly routes (`/api/breakouts?asOf=`, `/api/universe/scan`, `/api/transparency/verify`, `/api/transparency/ledger.csv`, `/api/scorecard?source=replay`, `/api/transparency/monthly?source=replay`), counted on top of `RATE_LIMIT_QUOTA`',
    }),
    windowSeconds: variable('RATE_LIMIT_WINDOW_SECONDS', int().min(1), { default: '60', doc: 'length of the fixed rate-limit window' }),
  }),
  auth: authGroup,
  ai: aiGroup,
  /** The explain endpoints' own, stricter quota (each explanation may cost a model call) and body limit. */
  explain: z.object({
    quota: variable('EXPLAIN_RATE_LIMIT_QUOTA', int().min(1), {
      default: '10',
      doc: 'explain requests per client IP per window (no valid credential), on top of the general limit (each may cost a model call)',
    }),
    tierQuotas: tierQuotas('EXPLAIN_RATE_LIMIT_QUOTA', { free: '10', pro: '60', enterprise: '300' }, {
      free: 'the same per user of the `free` tier, sessions and API keys together',
      pro: 'the same for `pro`',
      enterprise: 'the same for `enterprise` (each not below the one under it)',
    }),
    windowSeconds: variable('EXPLAIN_RATE_LIMIT_WINDOW_SECONDS', int().min(1), { default: '60', doc: 'length of that window' }),
    bodyLimitBytes: variable('EXPLAIN_BODY_LIMIT_BYTES', int().min(1024).max(10_485_760), { default: '65536', doc: 'largest `POST /api/explain` body (413 beyond it)' }),
  }),
  graphql: z.object({
    maxDepth: variable('GRAPHQL_MAX_DEPTH', int().min(2).max(50), { default: '10', doc: 'deepest selection `/api/graphql` executes (graphql-armor max-depth)' }),
    maxAliases: variable('GRAPHQL_MAX_ALIASES', int().min(0).max(1000), { default: '15', doc: 'most aliases in one GraphQL document' }),
    batchLimit: variable('GRAPHQL_BATCH_LIMIT', int().min(1).max(100), { default: '10', doc: 'most operations in one batched POST' }),
    maxCost: variable('GRAPHQL_MAX_COST_PER_TIER', perTier, {
      default: '2000,10000,50000',
      doc: 'largest query cost for free, pro, enterprise (anonymous callers as free): each field 1, times the `first`/`limit` of the lists around it, each root field 10, a root field whose REST route is in a quota class (costly, explain) 500; refused before execution (`QUERY_TOO_COSTLY`)',
    }),
    introspection: variable('GRAPHQL_INTROSPECTION', bool, { default: 'true', doc: '`false` refuses `__schema`/`__type` (GraphiQL then has no schema to show)' }),
    /** graphql-sse streams reserved by PUT and not yet opened: released after `reservationSeconds`; at most `maxReservations` an instance, `maxReservationsPerClient` a client. */
    sse: z.object({
      reservationSeconds: variable('GRAPHQL_SSE_RESERVATION_SECONDS', int().min(1).max(3600), {
        default: '30',
        doc: 'how long a stream reserved by `PUT /api/graphql/stream` (graphql-sse single connection mode) waits to be opened by its GET; then it is released (its token answers `404`, its operations stop)',
      }),
      maxReservations: variable('GRAPHQL_SSE_MAX_RESERVATIONS', int().min(1), {
        default: '1000',
        doc: 'reserved streams not yet opened an instance holds; past it `PUT` answers `503` with `Retry-After`',
      }),
      maxReservationsPerClient: variable('GRAPHQL_SSE_MAX_RESERVATIONS_PER_CLIENT', int().min(1), {
        default: '16',
        doc: 'the same per client IP (per user when signed in); past it `429` with `Retry-After`',
      }),
    }),
  }),
  /** The realtime stream (GET /api/stream): keep-alive comments, reconnection delay, replay buffer, quotes, caps. */
  stream: z.object({
    pingMs: variable('SSE_PING_MS', int().min(0), { default: '15000', doc: 'interval of the `: ping` comment on every stream; `0` sends none' }),
    retryMs: variable('SSE_RETRY_MS', int().min(0), {
      default: '3000',
      doc: 'reconnection delay told to clients (`retry:` in `hello`); also the `Retry-After` of a refused stream, in whole seconds',
    }),
    replaySize: variable('SSE_REPLAY_SIZE', int().min(1).max(1_000_000), {
      default: '10000',
      doc: 'events the replay buffer holds (and the Redis stream keeps, approximately); the event log in the database keeps at least as many, and none younger than `SSE_REPLAY_MAX_AGE_SECONDS`',
    }),
    replayMaxAgeSeconds: variable('SSE_REPLAY_MAX_AGE_SECONDS', int().min(1), { default: '3600', doc: 'the oldest event the replay buffer holds' }),
    quoteIntervalMs: variable('SSE_QUOTE_INTERVAL_MS', int().min(50), {
      default: '1000',
      doc: 'quote tick: at most one `quote` per symbol per client per tick (the synthetic market ticks once a second)',
    }),
    quotePollSeconds: variable('SSE_QUOTE_POLL_SECONDS', int().min(1), {
      default: '5',
      doc: 'how often a remote provider without a live stream (`yahoo`, or `alpaca`/`polygon` with `LIVE_STREAM=off`) is asked for the quote of each subscribed symbol; a live stream pushes quotes instead',
    }),
    maxConnections: variable('SSE_MAX_CONNECTIONS', int().min(1), {
      default: '10000',
      doc: "open streams per instance; past it `503` with `Retry-After`. GraphQL event streams (`/api/graphql` subscriptions, `/api/graphql/stream`) count against the same number as `/api/stream`'s: one budget of sockets",
    }),
    maxConnectionsPerClient: variable('SSE_MAX_CONNECTIONS_PER_CLIENT', int().min(1), {
      default: '32',
      doc: 'open streams per client IP (per user when signed in), over all instances on one Redis; past it `429` with `Retry-After`. GraphQL event streams and `/api/stream` together. Without Redis, or while it cannot be reached, per instance',
    }),
    maxSymbols: variable('SSE_MAX_SYMBOLS', int().min(1).max(500), { default: '50', doc: 'symbols one stream may ask quotes for' }),
    queueBytes: variable('SSE_QUEUE_KB', int().min(1).transform((kb) => kb * 1024), {
      default: '64',
      doc: "kilobytes handed to one client's socket at a time; its further events wait in the replay buffer",
    }),
    stallSeconds: variable('SSE_STALL_SECONDS', int().min(1), { default: '30', doc: 'a client with events waiting that takes nothing for this long is dropped' }),
  }),
  /** Account features: watchlists, alert rules and their webhooks, exports, the community feed. */
  account: z.object({
    caps: z.object({
      watchlists: variable('WATCHLISTS_PER_TIER', perTier, { default: '3,20,100', doc: 'watchlists a user may keep, per tier (free,pro,enterprise); `403` past it' }),
      watchlistSymbols: variable('WATCHLIST_SYMBOLS_PER_TIER', perTier, { default: '25,100,500', doc: 'symbols per watchlist, per tier; `403` past it' }),
      alertRules: variable('ALERT_RULES_PER_TIER', perTier, { default: '5,50,500', doc: 'alert rules (`/api/alerts/v2`) a user may keep, per tier; `403` past it' }),
      apiKeys: variable('API_KEYS_PER_TIER', perTier, {
        default: '5,25,100',
        doc: 'active (unrevoked) API keys a user may hold, per tier; `403` past it (`breakline keys create` is not capped)',
      }),
    }),
    bodyLimitBytes: variable('ACCOUNT_BODY_LIMIT_BYTES', int().min(1024).max(1_048_576), {
      default: '32768',
      doc: 'largest JSON body of an account write (watchlists, alert rules, journal, exports, community); `413` beyond it',
    }),
    idempotencyTtlMs: variable('IDEMPOTENCY_KEY_TTL_HOURS', z.coerce.number().positive().max(720).transform(hoursToMs), {
      default: '24',
      doc: 'how long the first answer to a POST with an `Idempotency-Key` is kept for retries',
    }),
    webhooks: z.object({
      allowPrivate: variable('ALERT_WEBHOOK_ALLOW_PRIVATE', bool, {
        default: 'false',
        doc: 'allow webhook URLs that resolve to loopback, private, link-local or other non-public addresses (tests, sidecars); refused (`400`) otherwise',
      }),
      caFile: variable('ALERT_WEBHOOK_CA_FILE', z.string().min(1).optional(), {
        doc: 'PEM file of extra CA certificates a webhook receiver may be signed by (an internal CA), besides the public roots',
      }),
      timeoutMs: variable('ALERT_WEBHOOK_TIMEOUT_MS', int().min(100).max(60_000), { default: '5000', doc: "one delivery attempt's time limit" }),
      maxAttempts: variable('ALERT_WEBHOOK_MAX_ATTEMPTS', int().min(1).max(20), { default: '6', doc: 'attempts per webhook delivery before it is given up as failed' }),
      backoffMs: variable('ALERT_WEBHOOK_BACKOFF_SECONDS', z.coerce.number().positive().max(3600).transform(secondsToMs), {
        default: '30',
        doc: 'wait before the second attempt; each later one waits twice the one before (at most six hours)',
      }),
    }),
    exportTtlMs: variable('EXPORTS_TTL_HOURS', z.coerce.number().positive().max(8760).transform(hoursToMs), { default: '24', doc: 'how long a done export can be downloaded (`410` after)' }),
    community: z.object({
      postQuota: variable('COMMUNITY_POST_QUOTA', int().min(1), { default: '10', doc: 'community posts a user may publish per window (`429` with `Retry-After` past it)' }),
      postWindowSeconds: variable('COMMUNITY_POST_WINDOW_SECONDS', int().min(1), { default: '3600', doc: 'that window' }),
      hideAfterReports: variable('COMMUNITY_HIDE_AFTER_REPORTS', int().min(0), {
        default: '5',
        doc: 'reports from different users that hide a post until an admin looks; `0`: never hidden by reports',
      }),
    }),
    adminUserIds: variable('ADMIN_USER_IDS', list.optional().transform((ids) => ids ?? []), {
      doc: "comma-separated user ids (the session's `sub`) with the admin role: they moderate the community feed",
    }),
  }),
});
