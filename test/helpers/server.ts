/**
 * A real listening server over a test context (loopback, a free port), and a
 * raw TCP client for the requests `fetch` cannot send: malformed framing,
 * HTTP/1.0 without Host, partial requests.
 */
import { connect, type Socket } from 'node:net';
import { createTestContext, type TestContext } from './app';

export interface RawReply {
  /** The status of the first response, or null when none came. */
  status: number | null;
  /** Response head (status line and headers), lower-cased header names. */
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection before `waitMs` ran out. */
  closedByServer: boolean;
}

export interface TestServer {
  ctx: TestContext;
  port: number;
  /** `fetch` on the server. */
  get(path: string, init?: RequestInit): Promise<Response>;
  /** Writes `chunks` on a fresh connection and reads until the server closes it or `waitMs` passes. */
  raw(chunks: (string | Uint8Array)[], waitMs?: number): Promise<RawReply>;
  /** Opens a connection and writes `head` without finishing the request; `drip` writes one more byte every second. */
  partial(head: string, drip?: boolean): { socket: Socket; closed: Promise<number> };
  close(): Promise<void>;
}

function parse(bytes: Buffer, closedByServer: boolean): RawReply {
  const text = bytes.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = end < 0 ? '' : text.slice(end + 4);
  const length = Number(headers['content-length']);
  return { status: status ? Number(status) : null, headers, body: Number.isInteger(length) ? rest.slice(0, length) : rest, closedByServer };
}

/** Writes `chunks` on `socket` once it connects and reads until the server closes it or `waitMs` passes. */
function exchange(socket: Socket, chunks: (string | Uint8Array)[], waitMs: number): Promise<RawReply> {
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(parse(received, false));
    }, waitMs);
    socket.on('connect', () => {
      for (const chunk of chunks) if (!socket.destroyed) socket.write(chunk);
    });
    socket.on('data', (data: Buffer) => (received = Buffer.concat([received, data])));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(received, true));
    });
  });
}

/** The raw exchange with any server on a loopback port (one that no TestServer wraps: a real process, the warm-up listener). */
export function rawRequest(port: number, chunks: (string | Uint8Array)[], waitMs = 3000): Promise<RawReply> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  return exchange(socket, chunks, waitMs);
}

export async function listenTestServer(options: Parameters<typeof createTestContext>[0] = {}): Promise<TestServer> {
  const ctx = await createTestContext(options);
  const app = ctx.app.listen({ port: 0, hostname: '127.0.0.1' });
  const port = app.server!.port!;
  const sockets = new Set<Socket>();
  const open = () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    return socket;
  };
  return {
    ctx,
    port,
    get: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init),
    raw: (chunks, waitMs = 3000) => exchange(open(), chunks, waitMs),
    partial: (head, drip = false) => {
      const socket = open();
      const started = performance.now();
      socket.on('connect', () => socket.write(head));
      const dripping = drip ? setInterval(() => socket.destroyed || socket.write('a'), 1000) : undefined;
      const closed = new Promise<number>((resolve) =>
        socket.on('close', () => {
          clearInterval(dripping);
          resolve(performance.now() - started);
        }),
      );
      return { socket, closed };
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await app.stop(true);
      await ctx.close();
    },
  };
}
