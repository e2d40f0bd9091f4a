/**
 * Test composition: a real app over a throwaway database. Without DATABASE_URL
 * the database is an in-memory PGlite; with it (CI's second run) every call gets
 * a fresh PostgreSQL database, dropped again by `close()`. REDIS_URL likewise
 * switches the rate-limit store to Redis (backed in-process, as the server
 * does), with a per-app key prefix. Each context has its own STATE_DIR (its
 * local session key lives there), removed by `close()`. Contexts that ask with
 * `redisBus` get everything else Redis carries too (the event bus, stream
 * caps, persisted queries) under a REDIS_KEY_PREFIX of their own, or the
 * `keyPrefix` that contexts playing several instances of one deployment share;
 * such contexts also share a database (`sameDatabaseAs`), as instances do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, fastRoutes, routeQuery } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createLogger, type Logger } from '../../src/log';
import type { Instrument, MarketDataProvider } from '../../src/providers/types';
import { createRateLimitStore, type RateLimitStore } from '../../src/ratelimit';
import { RedisLink } from '../../src/redis/link';
import type { AuthOverrides } from '../../src/auth';
import { loadOrCreateLocalKey, mintLocalToken } from '../../src/auth/local-key';
import type { Tier } from '../../src/domain/tiers';
import { createServices, type Services } from '../../src/services';
import { createSyntheticProvider, type SyntheticProvider } from '../../src/providers/synthetic';
import Redis from 'ioredis';
import { freshDatabaseUrl } from './db';

export { usingPostgres } from './db';

/** A fixed clock inside a New York session: Friday 2026-11-20 13:00 EST. */
export const FIXED_NOW = Date.UTC(2026, 10, 20, 18, 0);
/** The New York date of FIXED_NOW. */
export const FIXED_TODAY = '2026-11-20';

/** The market a test context serves unless told otherwise: the synthetic one, seed 42, on the fixed clock. */
export function syntheticMarket(): SyntheticProvider {
  return createSyntheticProvider({ seed: 42, now: () => FIXED_NOW });
}

/**
 * The synthetic market over a small universe (the ETFs and 40 index stocks,
 * AAPL, MSFT and NVDA among them): the same provider and code paths, but a
 * universe scan or replay costs a tenth of a second instead of seconds — for
 * suites that send hundreds of scanning requests (the fuzz suite).
 */
export function smallSyntheticMarket(): MarketDataProvider {
  const real = syntheticMarket();
  const inIndex = (i: Instrument) => i.indices.includes('sp500') || i.indices.includes('nasdaq100');
  const universe = async (): Promise<Instrument[]> => {
    const all = await real.universe();
    const keep = new Set([...all.filter(inIndex).slice(0, 37).map((i) => i.symbol), 'AAPL', 'MSFT', 'NVDA']);
    return all.filter((i) => keep.has(i.symbol) || !inIndex(i));
  };
  return Object.assign(Object.create(Object.getPrototypeOf(real)), real, { universe });
}

/** The spec's Error shape, as `errorBody` checks it. */
export interface ErrorBody {
  error: string;
  requestId?: string;
  code: string;
}

/** A reply read as JSON: its status, its headers and the parsed body. */
export interface JsonReply<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestContext {
  services: Services;
  app: ReturnType<typeof createApp>;
  config: Config;
  /** `app.handle` for a path (and optional init), on http://localhost. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /**
   * `request`, with the body parsed as JSON. `T` is what the test reads it as:
   * the route's response type (`Static<>` of its schema in src/modules/<x>/model.ts),
   * `ErrorBody` for an error, or `unknown` to narrow by hand.
   *
   * @example
   * const { status, body } = await ctx.json<BarsResponse>('/api/bars?symbol=AAPL&range=1mo');
   */
  json<T = unknown>(path: string, init?: RequestInit): Promise<JsonReply<T>>;
  /** A `Cookie` header value (`__session=…`) for `userId` at `tier`, minted with the context's local key. */
  sessionCookie(userId: string, tier?: Tier, ttlSeconds?: number): Promise<string>;
  /** A fresh API key (`bk_…`) of `userId` at `tier`, created through the service (as POST /api/keys does). */
  apiKey(userId: string, tier?: Tier): Promise<string>;
  /**
   * This context with `request` and `json` through `pipeline`: `elysia` is
   * `app.handle`; `fast` hands a GET of a hot route to the fast path
   * (app.ts `fastRoutes`, plugins/fast-path) as the server's router does, and
   * what it leaves to the app's handler. Suites of the hot routes run through both.
   */
  via(pipeline: Pipeline): TestContext;
  close(): Promise<void>;
}

/** The two ways a request reaches a route: Elysia's own (`app.handle`), or the fast path in front of it (the server's hot GETs). */
export const PIPELINES = ['elysia', 'fast'] as const;
export type Pipeline = (typeof PIPELINES)[number];

/** Where a context's database is, so another context can play a second instance on it. */
const databases = new WeakMap<TestContext, { url?: string; database: Services['database'] }>();

export interface TestContextOptions {
  env?: Record<string, string>;
  provider?: MarketDataProvider;
  rateLimitStore?: RateLimitStore;
  auth?: AuthOverrides;
  /** With REDIS_URL (or `url`): the bus, stream caps and persisted queries on Redis, under `keyPrefix` (else a prefix of its own). */
  redisBus?: { keyPrefix?: string; url?: string };
  /** Another instance of the same deployment: this context uses that one's database (and leaves it to that one to close). */
  sameDatabaseAs?: TestContext;
  log?: Logger;
}

export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const shared = options.sameDatabaseAs && databases.get(options.sameDatabaseAs);
  const database = shared ? undefined : await freshDatabaseUrl();
  const databaseUrl = shared ? shared.url : database?.url;
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-test-'));
  const redisUrl = options.redisBus?.url ?? process.env.REDIS_URL;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    STATE_DIR: stateDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...(redisUrl && options.redisBus ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: options.redisBus.keyPrefix ?? `breakline:test:${crypto.randomUUID()}:` } : {}),
    ...options.env,
  });
  const log = options.log ?? createLogger('silent');
  // The rate-limit counters on the shared Redis (with REDIS_URL) under a prefix of their own, as the server keeps them;
  // with `redisBus` the services keep them on the configured Redis with everything else.
  const rateLimitRedis = !options.rateLimitStore && !options.redisBus && process.env.REDIS_URL ? new RedisLink({ url: process.env.REDIS_URL, keyPrefix: `breakline:test:${crypto.randomUUID()}:`, log }) : undefined;
  const rateLimitStore = options.rateLimitStore ?? (options.redisBus ? undefined : createRateLimitStore({ redis: rateLimitRedis, log }));
  // PGlite belongs to one process: a second instance on it shares the object (closed by its owner).
  const pglite = shared && !shared.url ? { ...shared.database, close: async () => {} } : undefined;
  const services = await createServices(config, {
    provider: options.provider ?? syntheticMarket(),
    log,
    pgliteDir: ':memory:',
    rateLimitStore,
    auth: options.auth,
    database: pglite,
    // Replays and baselines run on the background lane; niced as in production they would get the CPU
    // last, and on a busy machine (CI runs two suites side by side) take minutes (replay-boot: 36 s quiet, 130 s at load 15).
    backgroundNice: 0,
  });
  const app = createApp(services);
  const hot = fastRoutes(services, () => app.handle, routeQuery(() => app));
  const requestVia = (pipeline: Pipeline) => async (path: string, init?: RequestInit): Promise<Response> => {
    const request = new Request(`http://localhost${path}`, init);
    const fast = pipeline === 'fast' ? hot[new URL(request.url).pathname]?.GET : undefined;
    return fast ? fast(request, null) : app.handle(request);
  };
  const jsonVia = (request: TestContext['request']) => async <T>(path: string, init?: RequestInit): Promise<JsonReply<T>> => {
    const response = await request(path, init);
    return { status: response.status, headers: response.headers, body: (await response.json()) as T };
  };
  const request = requestVia('elysia');
  const context: TestContext = {
    services,
    app,
    config,
    request,
    json: jsonVia(request),
    via: (pipeline) => ({ ...context, request: requestVia(pipeline), json: jsonVia(requestVia(pipeline)) }),
    sessionCookie: async (userId, tier = 'free', ttlSeconds = 600) => {
      const key = await loadOrCreateLocalKey(config.auth.localKeyFile);
      const { token } = await mintLocalToken(key, { userId, tier, ttlSeconds, tierClaim: config.auth.tierClaim });
      return `__session=${token}`;
    },
    apiKey: async (userId, tier = 'free') => (await services.auth.keys.create({ userId, name: 'test', tier })).key,
    close: async () => {
      if (config.redisUrl && !options.redisBus?.keyPrefix) await dropKeys(config.redisUrl, config.redisKeyPrefix);
      await services.close();
      rateLimitRedis?.close();
      await database?.drop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
  databases.set(context, { url: databaseUrl, database: services.database });
  return context;
}

/** Deletes every key under a test's own prefix (never anything else on a shared Redis). */
export async function dropKeys(url: string, keyPrefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, lazyConnect: true });
  redis.on('error', () => {});
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${keyPrefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } catch {
    // Redis is gone (a fault test stopped it): nothing to clean
  } finally {
    redis.disconnect();
  }
}

/** Asserts the spec's Error shape and returns the body. */
export async function errorBody(response: Response): Promise<ErrorBody> {
  const body = (await response.json()) as ErrorBody;
  if (typeof body.error !== 'string' || body.error.length === 0) throw new Error(`not an Error body: ${JSON.stringify(body)}`);
  if (typeof body.code !== 'string') throw new Error(`Error body without code: ${JSON.stringify(body)}`);
  if (body.requestId !== response.headers.get('x-request-id')) throw new Error('requestId does not match X-Request-Id');
  return body;
}
