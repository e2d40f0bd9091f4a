/**
 * Test composition: a real app over a throwaway database. Without DATABASE_URL
 * the database is an in-memory PGlite; with it (CI's second run) every call gets
 * a fresh PostgreSQL database, dropped again by `close()`. REDIS_URL likewise
 * switches the rate-limit store to Redis, with a per-app key prefix, and — for
 * the contexts that ask with `redisBus` — the event bus, on a stream of their
 * own or on the `key` that contexts playing several instances share.
 */
import { createApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/log';
import type { MarketDataProvider } from '../../src/providers/types';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitStore } from '../../src/ratelimit';
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
  close(): Promise<void>;
}

export async function createTestContext(
  options: { env?: Record<string, string>; provider?: MarketDataProvider; rateLimitStore?: RateLimitStore; redisBus?: { key?: string } } = {},
): Promise<TestContext> {
  const database = await freshDatabaseUrl();
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    STATE_DIR: '/tmp/breakline-test',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const rateLimitStore =
    options.rateLimitStore ??
    (process.env.REDIS_URL
      ? new RedisRateLimitStore(process.env.REDIS_URL, `breakline:test:${crypto.randomUUID()}:`)
      : new MemoryRateLimitStore());
  const log = createLogger('silent');
  const bus =
    process.env.REDIS_URL && options.redisBus
      ? new RedisEventBus({ url: process.env.REDIS_URL, key: options.redisBus.key ?? `breakline:test:${crypto.randomUUID()}:events`, maxLength: config.stream.replaySize, log })
      : undefined;
  const services = await createServices(config, {
    provider: options.provider ?? syntheticMarket(),
    log,
    pgliteDir: ':memory:',
    rateLimitStore,
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
    close: async () => {
      if (bus && !options.redisBus?.key) await bus.drop();
      await services.close();
      await database?.drop();
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
