/**
 * Test tools for the realtime stream: the app on a loopback port, a recording
 * EventSource (the `eventsource` package: the WHATWG client, with its own
 * reconnection and Last-Event-ID), a TCP proxy that cuts connections at chosen
 * byte counts, a client that never reads, and a plain frame reader for hub
 * streams opened directly.
 */
import type { Socket, TCPSocketListener } from 'bun';
import { EventSource } from 'eventsource';
import { createApp } from '../../src/app';
import type { Signal } from '../../src/domain/signal';
import type { TestContext } from './app';
import { makeSignal } from './signal';

export const STREAM_EVENTS = ['hello', 'reset', 'quote', 'breakouts.new', 'breakouts.state_change', 'alerts.dispatched', 'backtest.progress'] as const;

export interface Received {
  event: string;
  id: string;
  data: Record<string, unknown>;
}

/** The test context's app listening on 127.0.0.1 (Bun's `idleTimeout` as given, else Elysia's). */
export function serve(ctx: TestContext, options: { idleTimeout?: number } = {}) {
  const app = createApp(ctx.services).listen({ port: 0, hostname: '127.0.0.1', ...(options.idleTimeout === undefined ? {} : { idleTimeout: options.idleTimeout }) });
  const port = app.server!.port!;
  return { port, base: `http://127.0.0.1:${port}`, stop: () => app.stop(true) };
}

/** An EventSource that records every stream event, its errors and (re)connections. */
export class RecordingSource {
  readonly events: Received[] = [];
  errors = 0;
  readonly source: EventSource;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.source = new EventSource(url, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...headers } }),
    });
    for (const name of STREAM_EVENTS) {
      this.source.addEventListener(name, (e) => this.events.push({ event: name, id: e.lastEventId, data: JSON.parse(e.data) }));
    }
    this.source.addEventListener('error', () => this.errors++);
  }

  of(event: string): Received[] {
    return this.events.filter((e) => e.event === event);
  }

  close(): void {
    this.source.close();
  }
}

/**
 * A loopback TCP proxy to `targetPort` that cuts each connection once the
 * number of bytes `cutAfter()` chose has passed back to the client (mid-frame
 * as often as not). `cuts` counts them.
 */
export function cuttingProxy(targetPort: number, cutAfter: () => number) {
  type Pair = { upstream?: Socket<undefined>; pending: Uint8Array[]; budget: number; client: Socket<Pair> };
  let cuts = 0;
  const listener: TCPSocketListener<Pair> = Bun.listen<Pair>({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      async open(client) {
        const pair: Pair = { pending: [], budget: cutAfter(), client };
        client.data = pair;
        pair.upstream = await Bun.connect({
          hostname: '127.0.0.1',
          port: targetPort,
          socket: {
            data(_, chunk) {
              if (pair.budget <= 0) return;
              const part = chunk.byteLength > pair.budget ? chunk.subarray(0, pair.budget) : chunk;
              pair.budget -= part.byteLength;
              client.write(part);
              if (pair.budget <= 0) {
                cuts++;
                client.end();
                pair.upstream?.end();
              }
            },
            close() {
              client.end();
            },
            error() {},
          },
        });
        for (const chunk of pair.pending) pair.upstream.write(chunk);
      },
      data(client, chunk) {
        if (client.data.upstream) client.data.upstream.write(chunk);
        else client.data.pending.push(new Uint8Array(chunk));
      },
      close(client) {
        client.data?.upstream?.end();
      },
      error() {},
    },
  });
  return { port: listener.port, cuts: () => cuts, stop: () => listener.stop(true) };
}

/** A client that sends the request and then never reads (its socket paused): TCP back-pressure reaches the server. */
export async function nonReadingClient(port: number, path: string) {
  let closed!: () => void;
  const done = new Promise<void>((resolve) => (closed = resolve));
  const socket = await Bun.connect({
    hostname: '127.0.0.1',
    port,
    socket: { data() {}, error() {}, close: () => closed() },
  });
  socket.pause();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
  return { resume: () => socket.resume(), closed: done };
}

/** Reads SSE events from a hub stream opened directly (comments skipped); `cancel` is the client going away. */
export function frameReader(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let pings = 0;
  const parsed: (Received & { retry?: number })[] = [];
  const take = () => {
    let end: number;
    while ((end = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      if (block === ': ping') pings++;
      const fields = Object.fromEntries(block.split('\n').filter((l) => !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]));
      if (fields.event !== undefined) parsed.push({ event: fields.event, id: fields.id ?? '', data: JSON.parse(fields.data ?? 'null'), ...(fields.retry ? { retry: Number(fields.retry) } : {}) });
    }
  };
  return {
    /** The next `count` events (fewer when the stream ends first). */
    async read(count: number): Promise<(Received & { retry?: number })[]> {
      while (parsed.length < count) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        take();
      }
      return parsed.splice(0, count);
    },
    pings: () => pings,
    /** Waits for `n` more ping comments. */
    async pingsAfter(n: number): Promise<number> {
      const target = pings + n;
      while (pings < target) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        take();
      }
      return pings;
    },
    cancel: () => reader.cancel(),
  };
}

/** A well-formed breakout signal for publishing on the bus, one a minute by `n` (`padding` makes its frame bigger). */
export function sampleSignal(n: number, padding = ''): Signal {
  const reason = `close above the range high (${n})`;
  return makeSignal({
    symbol: 'AAPL',
    patternFamily: 'range',
    patternType: 'range_breakout',
    detectedAt: new Date(Date.UTC(2026, 10, 20, 18, 0) + n * 60_000).toISOString(),
    reasons: padding ? [reason, padding] : [reason],
  });
}
