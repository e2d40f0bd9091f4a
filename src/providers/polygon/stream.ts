/**
 * @module providers/polygon/stream
 * Polygon's (Massive's) stocks cluster, `wss://socket.massive.com/stocks`
 * (real-time) or `wss://delayed.massive.com/stocks` (15-minute delayed), as a
 * wire protocol: what to send, and every frame parsed here and nowhere else.
 * From the documentation (massive.com/docs/websocket/stocks/aggregates-per-minute,
 * …/trades) and the official client's types (polygon-io/client-js
 * `src/websockets/stocks`):
 *
 * - Every server frame is a JSON array of events, each with `ev`.
 * - Flow: `[{"ev":"status","status":"connected","message":"Connected Successfully"}]`
 *   → send `{"action":"auth","params":KEY}` →
 *   `[{"ev":"status","status":"auth_success","message":"authenticated"}]` → send
 *   `{"action":"subscribe","params":"AM.SPY,T.SPY"}` →
 *   `[{"ev":"status","status":"success","message":"subscribed to: AM.SPY"}]`.
 * - Refusals seen on the wire: `auth_failed` ("authentication failed",
 *   polygon-io/client-php#17) and `max_connections` ("Maximum number of
 *   websocket connections exceeded. You have reached the connection limit for
 *   your account.", then close 1008: one connection per cluster on an
 *   individual plan; the vendor closes the *older* connection).
 * - Data: `AM` minute aggregate (`sym`, `o`, `h`, `l`, `c`, `v`, `av` today's
 *   volume, `s`/`e` window start/end in Unix ms), `T` trade (`sym`, `p`, `s`,
 *   `t` ms, `c` condition ids: ./conditions), `Q` quote (`bp`, `ap`, `t`).
 */
import { frameMessages, wireNumber } from '../live/payload';
import { sipConditions } from './conditions';
import type { StreamMessage, Subscriptions, WireProtocol } from '../live/types';

export interface PolygonStreamOptions {
  apiKey: string;
  /** `wss://socket.massive.com` (real-time) or `wss://delayed.massive.com`; `/stocks` is appended. */
  streamUrl: string;
}

const num = wireNumber;

function status(raw: Record<string, unknown>): StreamMessage {
  const said = String(raw.message ?? raw.status);
  switch (raw.status) {
    case 'connected':
      return { kind: 'connected' };
    case 'auth_success':
      return { kind: 'authenticated' };
    case 'success':
      return { kind: 'subscribed', detail: said };
    case 'auth_failed':
      return { kind: 'refused', reason: 'auth', message: `auth_failed: ${said}` };
    case 'max_connections':
      return { kind: 'refused', reason: 'connections', message: `max_connections: ${said}` };
    case 'error':
      return { kind: 'refused', reason: 'other', message: `error: ${said}` };
    default:
      return { kind: 'other' };
  }
}

function event(raw: Record<string, unknown>): StreamMessage {
  switch (raw.ev) {
    case 'status':
      return status(raw);
    case 'AM':
      return { kind: 'minute', symbol: String(raw.sym), bar: { t: num(raw.s), o: num(raw.o), h: num(raw.h), l: num(raw.l), c: num(raw.c), v: num(raw.v) }, revised: false };
    case 'T':
      return { kind: 'trade', trade: { symbol: String(raw.sym), price: num(raw.p), size: num(raw.s), ts: num(raw.t), conditions: sipConditions(raw.c) } };
    case 'Q':
      return { kind: 'quote', symbol: String(raw.sym), bid: num(raw.bp), ask: num(raw.ap), ts: num(raw.t) };
    default:
      return { kind: 'other' };
  }
}

export class PolygonStream implements WireProtocol {
  readonly vendor = 'polygon';
  readonly url: string;

  constructor(private readonly options: PolygonStreamOptions) {
    this.url = `${options.streamUrl.replace(/\/+$/, '')}/stocks`;
  }

  auth(): string {
    return JSON.stringify({ action: 'auth', params: this.options.apiKey });
  }

  resubscribe(from: Subscriptions, to: Subscriptions): string[] {
    const channels = (s: Subscriptions) => new Set([...[...s.bars].map((sym) => `AM.${sym}`), ...[...s.trades].map((sym) => `T.${sym}`)]);
    const before = channels(from);
    const after = channels(to);
    const out: string[] = [];
    const gone = [...before].filter((c) => !after.has(c));
    const fresh = [...after].filter((c) => !before.has(c));
    if (gone.length) out.push(JSON.stringify({ action: 'unsubscribe', params: gone.join(',') }));
    if (fresh.length) out.push(JSON.stringify({ action: 'subscribe', params: fresh.join(',') }));
    return out;
  }

  parse(frame: string): StreamMessage[] {
    return frameMessages(frame, event);
  }

}
