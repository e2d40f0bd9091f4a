/**
 * @module cli/capacity/stream-clients
 * A process holding many SSE connections to one server over raw sockets (an
 * EventSource per connection would measure the client, not the server): it
 * counts the events each receives and, for the timed ones, the delay from the
 * event's time to its receipt. `breakline capacity` runs it as
 * `breakline capacity --role stream-clients <json>`, the benches as
 * bench/sse-clients.ts; the parent side is cli/capacity/stream-fleet.
 *
 * An event's time is read from its payload without a JSON parse (the client
 * must stay cheap: on one machine it shares the CPUs with the server):
 * `price` — epoch ms with sub-ms precision, put there by whoever publishes
 * (bench/sse, bench/live, the capacity instance's publisher); `ts` — the ISO
 * time of a `quote` (a quote's age when it arrives, whatever served it).
 * `performance.timeOrigin + performance.now()` agrees across the processes of
 * one machine to well under 1 ms; across machines the clocks' offset adds in.
 *
 * Talks to its parent on stdio, one JSON line each: `{"ready":n,…}` once every
 * connection has had its `hello` or been refused; on `report` the counts since
 * the last report (`ClientReport`); on `exit` it exits.
 */
import { readFileSync } from 'node:fs';

/** How to read an event's time: from `"price":<epoch ms>`, from `"ts":"<ISO>"`, or not at all (only counted). */
export type EventClock = 'price' | 'ts' | null;

export interface StreamClientsConfig {
  host: string;
  port: number;
  tls?: boolean;
  /** Request paths with their query; connection i asks the i-th (round robin). */
  paths: string[];
  count: number;
  /** The events counted, each with the clock its delay is read from. */
  events: Record<string, EventClock>;
  /** Extra request headers (a credential). */
  headers?: Record<string, string>;
}

export interface ClientReport {
  /** Events counted since the last report. */
  received: number;
  /** Receipt delays of the timed events since the last report, µs. */
  latencies: number[];
  /** Connections that ended since the start. */
  closed: number;
  /** Connections answered with another status than 200, by status, since the start. */
  refused: Record<string, number>;
  /** This process's CPU time since the last report (user + system, µs). */
  cpuUs: number;
}

const clock = () => performance.timeOrigin + performance.now();

interface Connection {
  text: string;
  /** The status line was read (200: greeted once `hello` came). */
  answered: boolean;
  greeted: boolean;
  /** Counted towards ready: greeted, refused, or gone before either. */
  settled: boolean;
}

/** A connection not yet answered. */
export const newConnection = (): Connection => ({ text: '', answered: false, greeted: false, settled: false });

/** The client side of every connection, and the counts the parent asks for. */
export class StreamClients {
  ready = 0;
  received = 0;
  closed = 0;
  readonly refused: Record<string, number> = {};
  readonly latencies: number[] = [];
  private readonly decoder = new TextDecoder();
  private readonly names: [string, EventClock][];

  constructor(
    private readonly config: StreamClientsConfig,
    private readonly onReady: () => void,
  ) {
    this.names = Object.entries(config.events).map(([name, how]) => [`event: ${name}\n`, how]);
  }

  /** Splits complete frames off the connection's text and counts them. */
  take(conn: Connection, chunk: Uint8Array): void {
    conn.text = conn.text === '' ? this.decoder.decode(chunk) : conn.text + this.decoder.decode(chunk);
    if (!conn.answered) {
      const eol = conn.text.indexOf('\r\n');
      if (eol < 0) return;
      conn.answered = true;
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(conn.text.slice(0, eol))?.[1] ?? 'unreadable';
      if (status !== '200') {
        conn.text = '';
        this.settle(conn, status);
        return;
      }
    }
    let start = 0;
    let end: number;
    while ((end = conn.text.indexOf('\n\n', start)) >= 0) {
      if (!conn.greeted) {
        if (conn.text.lastIndexOf('event: hello', end) >= start) {
          conn.greeted = true;
          this.settle(conn);
        }
      } else this.frame(conn.text, start, end);
      start = end + 2;
    }
    conn.text = start >= conn.text.length ? '' : conn.text.slice(start);
  }

  /** One frame `text[start, end)`: counted when it is one of the events, timed by its clock. (Raw HTTP/1.1: chunk-size lines sit between frames, so look inside the block.) */
  private frame(text: string, start: number, end: number): void {
    for (const [name, how] of this.names) {
      const at = text.indexOf(name, start);
      if (at < 0 || at >= end) continue;
      this.received++;
      if (how === 'price') {
        const p = text.indexOf('"price":', start);
        if (p >= 0 && p < end) this.latencies.push(Math.round((clock() - parseFloat(text.slice(p + 8, p + 32))) * 1000));
      } else if (how === 'ts') {
        const t = text.indexOf('"ts":"', start);
        const sent = t >= 0 && t < end ? Date.parse(text.slice(t + 6, text.indexOf('"', t + 6))) : NaN;
        if (Number.isFinite(sent)) this.latencies.push(Math.round((Date.now() - sent) * 1000));
      }
      return;
    }
  }

  /** The connection has its answer: greeted (no `refusal`), or refused with a status or a failure. */
  settle(conn: Connection, refusal?: string): void {
    if (conn.settled) return;
    conn.settled = true;
    if (refusal !== undefined) this.refused[refusal] = (this.refused[refusal] ?? 0) + 1;
    if (++this.ready === this.config.count) this.onReady();
  }

  /** The connection ended (before its hello: a refusal). */
  ended(conn: Connection): void {
    this.closed++;
    this.settle(conn, 'closed');
  }

  /** The counts since the last call (latencies and received start again). */
  report(cpuUs: number): ClientReport {
    const out = { received: this.received, latencies: this.latencies.splice(0), closed: this.closed, refused: { ...this.refused }, cpuUs };
    this.received = 0;
    return out;
  }
}

/** The request line and headers of connection `i`. */
export function requestFor(config: StreamClientsConfig, i: number): string {
  const host = config.port === (config.tls ? 443 : 80) ? config.host : `${config.host}:${config.port}`;
  const extra = Object.entries(config.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `GET ${config.paths[i % config.paths.length]} HTTP/1.1\r\nHost: ${host}\r\nAccept: text/event-stream\r\n${extra}\r\n`;
}

/** The process: opens the connections, then answers `report` and `exit` lines on stdin. */
export async function runStreamClients(config: StreamClientsConfig): Promise<void> {
  const say = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
  const clients = new StreamClients(config, () => say({ ready: clients.ready, refused: clients.refused }));
  for (let i = 0; i < config.count; i++) {
    const conn = newConnection();
    const request = requestFor(config, i);
    await Bun.connect({
      hostname: config.host,
      port: config.port,
      tls: config.tls,
      socket: {
        open: (socket) => void socket.write(request),
        data: (_, chunk) => clients.take(conn, chunk),
        close: () => clients.ended(conn),
        error: () => {},
      },
    }).catch(() => clients.settle(conn, 'unreachable'));
    if (i % 250 === 249) await Bun.sleep(5); // let the server accept in step
  }
  let cpuMark = process.cpuUsage();
  for await (const line of console) {
    if (line === 'report') {
      const cpu = process.cpuUsage(cpuMark);
      cpuMark = process.cpuUsage();
      say(clients.report(cpu.user + cpu.system));
    } else if (line === 'exit') process.exit(0);
  }
  process.exit(0); // the parent went away
}

/** The config of a `--role stream-clients` process: its argument is JSON, or `@file` holding JSON. */
export function parseClientsConfig(arg: string): StreamClientsConfig {
  return JSON.parse(arg.startsWith('@') ? readFileSync(arg.slice(1), 'utf8') : arg) as StreamClientsConfig;
}
