/**
 * Test composition: a real app over a throwaway database. Without DATABASE_URL
 * the database is an in-memory PGlite; with it (CI's second run) every call gets
 * a fresh PostgreSQL database, dropped again by `close()`. REDIS_URL likewise
 * switches the rate-limit store to Redis (backed in-process, as the server
 * does), with a per-app key prefix. Each context has its own STATE_DIR (its
 * local session key lives there), removed by `close()`. Contexts that ask with
 * `redisBus` get the event bus on Redis too, on a stream of their own or on the
 * `key` that contexts playing several instances share.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createLogger, type Logger } from '../../src/log';
import type { Instrument, MarketDataProvider } from '../../src/providers/types';
import { createRateLimitStore, type RateLimitStore } from '../../src/ratelimit';
import type { AuthOverrides } from '../../src/auth';
import { loadOrCreateLocalKey, mintLocalToken } from '../../src/auth/local-key';
import type { Tier } from '../../src/domain/tiers';
import { createServices, type Services } from '../../src/services';
import { createSyntheticProvider, type SyntheticProvider } from '../../src/providers/synthetic';
import { RedisEventBus } from '../../src/stream/bus';
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
  close(): Promise<void>;
}

export async function createTestContext(
  options: { env?: Record<string, string>; provider?: MarketDataProvider; rateLimitStore?: RateLimitStore; auth?: AuthOverrides; redisBus?: { key?: string }; log?: Logger } = {},
): Promise<TestContext> {
  const database = await freshDatabaseUrl();
  const stateDir = mkdtempSync(join(tmpdir(), 'breakline-test-'));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    STATE_DIR: stateDir,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const log = options.log ?? createLogger('silent');
  const rateLimitStore =
    options.rateLimitStore ?? createRateLimitStore({ redisUrl: process.env.REDIS_URL, keyPrefix: `breakline:test:${crypto.randomUUID()}:`, log });
  const bus =
    process.env.REDIS_URL && options.redisBus
      ? new RedisEventBus({ url: process.env.REDIS_URL, key: options.redisBus.key ?? `breakline:test:${crypto.randomUUID()}:events`, maxLength: config.stream.replaySize, log })
      : undefined;
  const services = await createServices(config, {
    provider: options.provider ?? syntheticMarket(),
    log,
    pgliteDir: ':memory:',
    rateLimitStore,
    auth: options.auth,
    bus,
  });
  const app = createApp(services);
  const request = (path: string, init?: RequestInit) => app.handle(new Request(`http://localhost${path}`, init));
  return {
    services,
    app,
    config,
    request,
    json: async <T>(path: string, init?: RequestInit): Promise<JsonReply<T>> => {
      const response = await request(path, init);
      return { status: response.status, headers: response.headers, body: (await response.json()) as T };
    },
    sessionCookie: async (userId, tier = 'free', ttlSeconds = 600) => {
      const key = await loadOrCreateLocalKey(config.auth.localKeyFile);
      const { token } = await mintLocalToken(key, { userId, tier, ttlSeconds, tierClaim: config.auth.tierClaim });
      return `__session=${token}`;
    },
    apiKey: async (userId, tier = 'free') => (await services.auth.keys.create({ userId, name: 'test', tier })).key,
    close: async () => {
      if (bus && !options.redisBus?.key) await bus.drop();
      await services.close();
      await database?.drop();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Asserts the spec's Error shape and returns the body. */
export async function errorBody(response: Response): Promise<ErrorBody> {
  const body = (await response.json()) as ErrorBody;
  if (typeof body.error !== 'string' || body.error.length === 0) throw new Error(`not an Error body: ${JSON.stringify(body)}`);
  if (typeof body.code !== 'string') throw new Error(`Error body without code: ${JSON.stringify(body)}`);
  if (body.requestId !== response.headers.get('x-request-id')) throw new Error('requestId does not match X-Request-Id');
  return body;
}
