/**
 * A loopback TCP proxy that can be cut and restored on the same port: the way
 * tests take a real Redis "down" and bring it back without touching the
 * server other tests share.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export async function tcpProxy(target: { host: string; port: number }) {
  let server: Server | undefined;
  const sockets = new Set<Socket>();
  let port = 0;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.pipe(upstream);
        upstream.pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await start();
  return { get port() { return port; }, start, stop };
}
