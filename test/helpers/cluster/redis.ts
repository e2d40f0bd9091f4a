/**
 * @module test/helpers/cluster/redis
 * A Redis server of the cluster suite's own on a port of its range (the
 * shared one on 6379 is never touched), without persistence: stopped and
 * started again it comes back empty, as a cache restarted by an operator
 * without a dump does — the harder case for the event bus.
 *
 * The lead unifies this with the bus engineer's test/helpers/redis-server.ts at merge.
 */
import type { Subprocess } from 'bun';
import { holdPort, releasePort } from './ports';

export interface PrivateRedis {
  port: number;
  url: string;
  /** SHUTDOWN NOSAVE by SIGTERM; resolves once the process has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers PING. */
  start(): Promise<void>;
  destroy(): Promise<void>;
  /** SIGKILL at once: for a test process that is being interrupted. */
  destroyNow(): void;
}

export async function startRedis(port: number): Promise<PrivateRedis> {
  let proc: Subprocess | undefined;
  const start = async () => {
    await releasePort(port);
    proc = Bun.spawn(['redis-server', '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], { stdout: 'ignore', stderr: 'ignore', stdin: 'ignore' });
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await ping(port)) return;
      if (proc.exitCode !== null) throw new Error(`redis-server on ${port} exited ${proc.exitCode}`);
      await Bun.sleep(100);
    }
    throw new Error(`redis-server on ${port} did not answer PING`);
  };
  const stop = async () => {
    if (!proc || proc.exitCode !== null) return;
    proc.kill('SIGTERM');
    await proc.exited;
  };
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, stop: () => stop().then(() => holdPort(port)), start, destroy: stop, destroyNow: () => proc?.kill('SIGKILL') };
}

/** Whether a Redis answers PING on the port (RESP over a plain socket). */
async function ping(port: number): Promise<boolean> {
  const { promise, resolve } = Promise.withResolvers<boolean>();
  try {
    const socket = await Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        data(s, chunk) {
          resolve(new TextDecoder().decode(chunk).startsWith('+PONG'));
          s.end();
        },
        error: () => resolve(false),
        close: () => resolve(false),
        connectError: () => resolve(false),
      },
    });
    socket.write('PING\r\n');
  } catch {
    return false;
  }
  return Promise.race([promise, Bun.sleep(1000).then(() => false)]);
}
