/**
 * @module test/helpers/cluster/ports
 * Loopback ports for the cluster suite's processes, from a range of its own
 * (`CLUSTER_PORTS`, default 46000–46999) so it never meets the shared servers
 * on 5432/6379 or another engineer's ports.
 *
 * That range lies inside Linux's ephemeral range (ip_local_port_range,
 * 32768–60999 by default): while no server listens on a port, any outgoing
 * connection on the machine may take it as its source port, and the server
 * then cannot bind it again (a Redis restarted after 20 s, an instance after
 * SIGTERM). So a port is held by a placeholder listener of the suite's own
 * whenever its server is down, and let go just before the server starts.
 */
import { createServer, type Server } from 'node:net';

const [FIRST, LAST] = (process.env.CLUSTER_PORTS ?? '46000-46999').split('-').map(Number) as [number, number];
const handedOut = new Set<number>();
const placeholders = new Map<number, Server>();
/** Holds under way (a release waits for one, so it never lets go before the placeholder is even there). */
const holding = new Map<number, Promise<void>>();

/**
 * Binds a placeholder on 127.0.0.1:`port`; resolves false when something else
 * has it. It drops every connection at once (the balancer's health checks
 * reach it while its instance is down), so closing it never waits on one.
 */
function bind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.unref();
      placeholders.set(port, server);
      resolve(true);
    });
  });
}

/** `count` free ports of the range, each held by a placeholder, starting at a random place in it (two runs at once do not collide). */
export async function freePorts(count: number): Promise<number[]> {
  const size = LAST - FIRST + 1;
  const start = Math.floor(Math.random() * size);
  const ports: number[] = [];
  for (let i = 0; i < size && ports.length < count; i++) {
    const port = FIRST + ((start + i) % size);
    if (handedOut.has(port) || !(await bind(port))) continue;
    handedOut.add(port);
    ports.push(port);
  }
  if (ports.length < count) throw new Error(`only ${ports.length} of ${count} free ports in ${FIRST}–${LAST} (CLUSTER_PORTS)`);
  return ports;
}

/** Lets go of `port`'s placeholder, for its server to bind it now. */
export async function releasePort(port: number): Promise<void> {
  await holding.get(port);
  const server = placeholders.get(port);
  placeholders.delete(port);
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Holds `port` again once its server has stopped (best effort: a few tries while the server's socket closes). */
export function holdPort(port: number): Promise<void> {
  const hold = (async () => {
    for (let attempt = 0; attempt < 20 && !placeholders.has(port); attempt++) {
      if (await bind(port)) return;
      await Bun.sleep(50);
    }
  })();
  holding.set(port, hold);
  void hold.finally(() => {
    if (holding.get(port) === hold) holding.delete(port);
  });
  return hold;
}

/** Lets go of every placeholder (the suite is done). */
export function releaseAll(): void {
  for (const server of placeholders.values()) server.close();
  placeholders.clear();
}
