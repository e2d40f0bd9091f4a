/**
 * @module test/helpers/vendors/polygon-stream
 * The WebSocket half of the loopback Polygon (Massive) server: the stocks
 * cluster at `/stocks` with its documented flow
 * (massive.com/docs/websocket/stocks/aggregates-per-minute): `connected` on
 * connect, `{"action":"auth","params":KEY}` → `auth_success` or `auth_failed`,
 * `subscribe`/`unsubscribe` with comma-separated `params` answered with a
 * `success` status per channel; one authenticated connection per cluster,
 * the older one closed with `max_connections` and close code 1008, as the
 * vendor does (observed: rustrade-data's Massive connection notes).
 *
 * The test drives the replay: `minute(t)` sends the recorded SPY minute
 * starting at `t` as an `AM` event (`s`/`e` its start and end in ms) and a
 * trade at its close as a `T` event. The minutes are the ones recorded (on
 * Alpaca's SIP feed: Polygon's recordings are 5-minute aggregates); the trade
 * is derived from the minute, since no trades were recorded.
 */
import type { ServerWebSocket } from 'bun';
import type { RecordedBar } from './recordings';

export interface PolygonSession {
  authenticated: boolean;
  channels: Set<string>;
}

export interface PolygonStreamState {
  apiKey: string;
  minutes: Map<string, RecordedBar[]>;
  sockets: Set<ServerWebSocket<PolygonSession>>;
  received: string[];
  authentications: number;
}

const send = (ws: ServerWebSocket<PolygonSession>, events: object[]): void => void ws.send(JSON.stringify(events));
const status = (status: string, message: string) => ({ ev: 'status', status, message });

export function polygonStreamHandlers(state: PolygonStreamState) {
  return {
    open(ws: ServerWebSocket<PolygonSession>): void {
      state.sockets.add(ws);
      send(ws, [status('connected', 'Connected Successfully')]);
    },
    close(ws: ServerWebSocket<PolygonSession>): void {
      state.sockets.delete(ws);
    },
    message(ws: ServerWebSocket<PolygonSession>, text: string | Buffer): void {
      state.received.push(String(text));
      let request: { action?: unknown; params?: unknown };
      try {
        request = JSON.parse(String(text));
      } catch {
        return send(ws, [status('error', 'invalid JSON')]);
      }
      const params = typeof request.params === 'string' ? request.params : '';
      if (request.action === 'auth') {
        if (params !== state.apiKey) return send(ws, [status('auth_failed', 'authentication failed')]);
        for (const other of state.sockets) {
          if (other === ws || !other.data.authenticated) continue;
          send(other, [status('max_connections', 'Maximum number of websocket connections exceeded. You have reached the connection limit for your account.')]);
          other.close(1008, 'max connections');
        }
        ws.data.authenticated = true;
        state.authentications++;
        return send(ws, [status('auth_success', 'authenticated')]);
      }
      if (!ws.data.authenticated) return send(ws, [status('error', 'not authorized')]);
      const channels = params.split(',').map((c) => c.trim()).filter(Boolean);
      if (request.action === 'subscribe') {
        channels.forEach((c) => ws.data.channels.add(c));
        return send(ws, channels.map((c) => status('success', `subscribed to: ${c}`)));
      }
      if (request.action === 'unsubscribe') {
        channels.forEach((c) => ws.data.channels.delete(c));
        return send(ws, channels.map((c) => status('success', `unsubscribed to: ${c}`)));
      }
      send(ws, [status('error', `unknown action`)]);
    },
  };
}

/** Sends the recorded minute starting at `t` (`AM`, and a `T` at its close) to every subscriber; returns how many `AM` went out. */
export function replayPolygonMinute(state: PolygonStreamState, t: number): number {
  let sent = 0;
  for (const [symbol, minutes] of state.minutes) {
    const bar = minutes.find((m) => m.t === t);
    if (!bar) continue;
    const today = minutes.filter((m) => m.t <= t && new Date(m.t).toISOString().slice(0, 10) === new Date(t).toISOString().slice(0, 10));
    for (const ws of state.sockets) {
      if (!ws.data.authenticated) continue;
      const out: object[] = [];
      if (ws.data.channels.has(`T.${symbol}`)) out.push({ ev: 'T', sym: symbol, x: 4, i: String(t), z: 3, p: bar.c, s: Math.max(1, Math.round(bar.v / Math.max(1, bar.n))), c: [], t: t + 59_000 });
      if (ws.data.channels.has(`AM.${symbol}`)) {
        out.push({ ev: 'AM', sym: symbol, v: bar.v, av: today.reduce((sum, m) => sum + m.v, 0), op: today[0]!.o, vw: bar.vw, o: bar.o, c: bar.c, h: bar.h, l: bar.l, a: bar.vw, z: Math.round(bar.v / Math.max(1, bar.n)), s: t, e: t + 60_000 });
        sent++;
      }
      if (out.length) send(ws, out);
    }
  }
  return sent;
}
