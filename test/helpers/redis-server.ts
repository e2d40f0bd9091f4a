/**
 * A private `redis-server` process on a loopback port, for the fault tests
 * that stop and start Redis (the shared server on 6379 is never stopped).
 * It keeps nothing on disk (`--save ''`, no AOF), so a restart comes back
 * empty, as a Redis without persistence does after a crash. Without a
 * `redis-server` binary on PATH, `redisServerMissing` says why and suites
 * skip with that message.
 *
 * @example
 * const redis = await startRedisServer(); // a free port (or one of your range: startRedisServer(42379))
 * // … REDIS_URL = redis.url …
 * await redis.stop();  // the outage
 * await redis.start(); // back on the same port, empty
 * await redis.close(); // for good
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';

/** Why a private Redis cannot be started here, or null when it can. */
export const redisServerMissing: string | null = Bun.which('redis-server') ? null : 'redis-server is not installed (apt-get install redis-server): the private-Redis fault tests are skipped';

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Whether the process is running. */
  readonly running: boolean;
  /** Starts it again on the same port (after `stop`), empty; resolves once it answers PING. */
  start(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL after 5 s); clients see their connections closed and refused. */
  stop(): Promise<void>;
  /** Stops it for good and removes its directory. */
  close(): Promise<void>;
}

async function answers(port: number): Promise<boolean> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** A loopback port nothing listens on now (the kernel's choice). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts `redis-server` on `port` (127.0.0.1 only; a free one when omitted); throws when it is missing or does not answer within 10 s. */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  if (redisServerMissing) throw new Error(redisServerMissing);
  port ??= await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'breakline-redis-'));
  let proc: Bun.Subprocess | undefined;

  const start = async () => {
    if (proc && proc.exitCode === null) return;
    if (await answers(port)) throw new Error(`port ${port} already has a Redis: pick another from your range`);
    proc = Bun.spawn(['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--logfile', ''], {
      stdout: 'ignore',
      stderr: 'ignore',
    });
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (proc.exitCode !== null) throw new Error(`redis-server on ${port} exited with ${proc.exitCode}`);
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer within 10 s`);
      await Bun.sleep(50);
    }
  };

  const stop = async () => {
    const running = proc;
    if (!running || running.exitCode !== null) return;
    running.kill('SIGTERM');
    const exited = await Promise.race([running.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
    if (!exited) {
      running.kill('SIGKILL');
      await running.exited;
    }
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return proc !== undefined && proc.exitCode === null;
    },
    start,
    stop,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
