/**
 * Several instances of one deployment in this process: test contexts that
 * share a database (test/helpers/app `sameDatabaseAs`) and everything Redis
 * carries under one REDIS_KEY_PREFIX, each served on a loopback port. `close`
 * stops them, the first (which owns the database) last.
 *
 * @example
 * const cluster = await deployment({ redisUrl: redis.url, env: { SSE_PING_MS: '0' } }, 2);
 * const [a, b] = cluster.instances;
 * await cluster.close();
 */
import { createLogger, type Logger } from '../../src/log';
import type { MarketDataProvider } from '../../src/providers/types';
import { createTestContext, type TestContext } from './app';
import { serve } from './sse';

export interface Instance {
  ctx: TestContext;
  server: ReturnType<typeof serve>;
}

export interface DeploymentOptions {
  /** Redis of the deployment; REDIS_URL when omitted. */
  redisUrl?: string;
  /** REDIS_KEY_PREFIX of the deployment; one of its own when omitted. */
  keyPrefix?: string;
  env?: Record<string, string>;
  provider?: () => MarketDataProvider;
  log?: Logger;
  /** Start each instance's SSE hub at once (the server does in its warm-up). */
  startHub?: boolean;
}

export async function deployment(options: DeploymentOptions, count: number) {
  const keyPrefix = options.keyPrefix ?? `breakline:test:${crypto.randomUUID()}:`;
  const instances: Instance[] = [];
  /** Each instance's last step of closing (services' `close` logs each at debug), for a teardown that hangs. */
  const closing = new Map<number, string>();
  const closingLog = (n: number) =>
    createLogger('debug', (line) => {
      if (line.includes('"msg":"closing')) closing.set(n, line);
    });
  const add = async (): Promise<Instance> => {
    const ctx = await createTestContext({
      env: options.env,
      provider: options.provider?.(),
      log: options.log ?? closingLog(instances.length),
      redisBus: { url: options.redisUrl, keyPrefix },
      sameDatabaseAs: instances[0]?.ctx,
    });
    if (options.startHub) await ctx.services.hub.start();
    const instance = { ctx, server: serve(ctx) };
    instances.push(instance);
    return instance;
  };
  for (let i = 0; i < count; i++) await add();
  return {
    keyPrefix,
    instances,
    /** One more instance of the same deployment. */
    add,
    /** Closes every instance; one still closing after 30 s is named on stderr with the step it is in (the teardown's own limit then fails it). */
    async close(): Promise<void> {
      let at = 'none yet';
      const watchdog = setTimeout(() => console.error(`deployment still closing after 30 s: ${at}; last steps: ${[...closing].map(([n, line]) => `instance ${n}: ${line}`).join(' | ')}`), 30_000);
      try {
        for (const [n, { ctx, server }] of [...instances.entries()].reverse()) {
          at = `instance ${n}: its server's stop`;
          await server.stop();
          at = `instance ${n}: its context's close`;
          await ctx.close();
        }
      } finally {
        clearTimeout(watchdog);
      }
    },
  };
}
