/**
 * The cluster suite's port placeholders (test/helpers/cluster/ports): a port
 * is held while its server is down and free the moment it is let go, even
 * when the let-go comes while a hold is still binding, and a connection to a
 * placeholder (the balancer's health check) never keeps it from closing.
 */
import { describe, expect, it } from 'bun:test';
import { createServer } from 'node:net';
import { freePorts, holdPort, releasePort } from '../helpers/cluster/ports';

/** Whether a server of our own could bind the port now (then it lets go at once). */
const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });

describe('port placeholders', () => {
  it('holds a handed-out port until it is let go', async () => {
    const [port] = await freePorts(1);
    expect(await bindable(port!)).toBe(false);
    await releasePort(port!);
    expect(await bindable(port!)).toBe(true);
  });

  it('lets go of a port whose hold is still binding', async () => {
    const [port] = await freePorts(1);
    await releasePort(port!);
    void holdPort(port!); // as an exit handler does, not awaited
    await releasePort(port!); // as the restart right after does
    expect(await bindable(port!)).toBe(true);
  });

  it('closes while a client is connected to the placeholder', async () => {
    const [port] = await freePorts(1);
    const client = await Bun.connect({ hostname: '127.0.0.1', port: port!, socket: { data() {}, error() {}, close() {} } });
    await releasePort(port!);
    expect(await bindable(port!)).toBe(true);
    client.end();
  });
});
