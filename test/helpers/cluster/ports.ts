/**
 * @module test/helpers/cluster/ports
 * Loopback ports for the cluster suite's processes, from a range of its own
 * (`CLUSTER_PORTS`, default 46000–46999) so it never meets the shared servers
 * on 5432/6379 or another engineer's ports. A port is handed out once per
 * process run and only when nothing listens on it now.
 */
import { createServer } from 'node:net';

const [FIRST, LAST] = (process.env.CLUSTER_PORTS ?? '46000-46999').split('-').map(Number) as [number, number];
const handedOut = new Set<number>();

/** Whether a listener could bind 127.0.0.1:`port` at this moment. */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** `count` free ports of the range, starting at a random place in it (two runs at once rarely collide, and never reuse each other's). */
export async function freePorts(count: number): Promise<number[]> {
  const size = LAST - FIRST + 1;
  const start = Math.floor(Math.random() * size);
  const ports: number[] = [];
  for (let i = 0; i < size && ports.length < count; i++) {
    const port = FIRST + ((start + i) % size);
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    ports.push(port);
  }
  if (ports.length < count) throw new Error(`only ${ports.length} of ${count} free ports in ${FIRST}–${LAST} (CLUSTER_PORTS)`);
  return ports;
}
