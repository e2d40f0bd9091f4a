/**
 * @module test/helpers/vendors/alpaca-stream
 * The WebSocket half of the loopback Alpaca server: the stock stream's
 * documented protocol (alpacahq/alpaca-docs, market-data-api/stock-pricing-data/realtime.md):
 * `[{"T":"success","msg":"connected"}]` on connect, `auth` → `authenticated`
 * or `402 auth failed`, one authenticated session at a time (`406 connection
 * limit exceeded`), `401 not authenticated` before auth, `400 invalid syntax`,
 * `subscribe`/`unsubscribe` answered with the whole `subscription` list, and
 * `405 symbol limit exceeded` past the plan's limit on trades and quotes
 * (subscriptions left as they were).
 *
 * The test drives the replay: `minute(t)` sends each subscribed symbol's
 * recorded minute bar starting at `t` (`b`), and a trade at its close (`t`)
 * to those subscribed to trades. No trades were recorded: that trade is
 * derived from the minute (its close, its last second, its average trade
 * size), so a quote has something to follow.
 */
import type { ServerWebSocket } from 'bun';
import type { RecordedBar } from './recordings';

export interface AlpacaSession {
  authenticated: boolean;
  trades: Set<string>;
  quotes: Set<string>;
  bars: Set<string>;
}

export interface AlpacaStreamState {
  keyId: string;
  secretKey: string;
  minutes: Map<string, RecordedBar[]>;
  /** Trades + quotes symbols a session may hold (the free plan's 30); null: no limit. */
  symbolLimit: number | null;
  sockets: Set<ServerWebSocket<AlpacaSession>>;
  /** Every client message, in order (the keys are in the auth message: tests check they reach only here). */
  received: string[];
  /** Sessions authenticated since the start. */
  authentications: number;
  /** The most sockets open at once, and the `406 connection limit exceeded` refusals sent. */
  peakSockets: number;
  limitRefusals: number;
}

const send = (ws: ServerWebSocket<AlpacaSession>, messages: object[]): void => void ws.send(JSON.stringify(messages));
const error = (ws: ServerWebSocket<AlpacaSession>, code: number, msg: string): void => send(ws, [{ T: 'error', code, msg }]);
const list = (value: unknown) => (Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : []);

function subscription(session: AlpacaSession) {
  return { T: 'subscription', trades: [...session.trades], quotes: [...session.quotes], bars: [...session.bars], updatedBars: [...session.bars], dailyBars: [], statuses: [], lulds: [], corrections: [], cancelErrors: [] };
}

export function alpacaStreamHandlers(state: AlpacaStreamState) {
  return {
    open(ws: ServerWebSocket<AlpacaSession>) {
      state.sockets.add(ws);
      state.peakSockets = Math.max(state.peakSockets, state.sockets.size);
      send(ws, [{ T: 'success', msg: 'connected' }]);
    },
    close(ws: ServerWebSocket<AlpacaSession>) {
      state.sockets.delete(ws);
    },
    message(ws: ServerWebSocket<AlpacaSession>, text: string | Buffer): void {
      state.received.push(String(text));
      let request: Record<string, unknown>;
      try {
        request = JSON.parse(String(text));
      } catch {
        return error(ws, 400, 'invalid syntax');
      }
      const session = ws.data;
      if (request.action === 'auth') {
        if (session.authenticated) return error(ws, 403, 'already authenticated');
        if (request.key !== state.keyId || request.secret !== state.secretKey) return error(ws, 402, 'auth failed');
        if ([...state.sockets].some((other) => other !== ws && other.data.authenticated)) {
          state.limitRefusals++;
          return error(ws, 406, 'connection limit exceeded');
        }
        session.authenticated = true;
        state.authentications++;
        return send(ws, [{ T: 'success', msg: 'authenticated' }]);
      }
      if (request.action !== 'subscribe' && request.action !== 'unsubscribe') return error(ws, 400, 'invalid syntax');
      if (!session.authenticated) return error(ws, 401, 'not authenticated');
      const next = { trades: new Set(session.trades), quotes: new Set(session.quotes), bars: new Set(session.bars) };
      for (const channel of ['trades', 'quotes', 'bars'] as const) {
        for (const symbol of list(request[channel])) {
          if (request.action === 'subscribe') next[channel].add(symbol);
          else next[channel].delete(symbol);
        }
      }
      if (state.symbolLimit !== null && new Set([...next.trades, ...next.quotes]).size > state.symbolLimit) return error(ws, 405, 'symbol limit exceeded');
      Object.assign(session, next);
      return send(ws, [subscription(session)]);
    },
  };
}

/** A trade as the stream sends it (Alpaca realtime.md, "Trades"). */
export interface WireTrade {
  symbol: string;
  price: number;
  size: number;
  ts: number;
  conditions: string[];
}

/** Sends the trades, in one frame, to every session subscribed to their symbol's trades; returns how many sessions got any. */
export function sendTrades(state: AlpacaStreamState, trades: readonly WireTrade[]): number {
  let sent = 0;
  for (const ws of state.sockets) {
    if (!ws.data.authenticated) continue;
    const out = trades
      .filter((trade) => ws.data.trades.has(trade.symbol))
      .map((trade, i) => ({ T: 't', S: trade.symbol, i, x: 'V', p: trade.price, s: trade.size, t: new Date(trade.ts).toISOString(), c: trade.conditions, z: 'B' }));
    if (out.length) {
      send(ws, out);
      sent++;
    }
  }
  return sent;
}

/** Sends the recorded minute starting at `t` to every session subscribed to its symbol; returns how many bars went out. */
export function replayMinute(state: AlpacaStreamState, t: number, type: 'b' | 'u' = 'b'): number {
  let sent = 0;
  for (const [symbol, minutes] of state.minutes) {
    const bar = minutes.find((m) => m.t === t);
    if (!bar) continue;
    for (const ws of state.sockets) {
      const { bars, trades } = ws.data;
      if (!ws.data.authenticated) continue;
      const out: object[] = [];
      if (trades.has(symbol)) {
        out.push({ T: 't', S: symbol, i: t / 1000, x: 'V', p: bar.c, s: Math.max(1, Math.round(bar.v / Math.max(1, bar.n))), t: new Date(t + 59_000).toISOString(), c: ['@'], z: 'B' });
      }
      if (bars.has(symbol)) {
        out.push({ T: type, S: symbol, o: bar.o, h: bar.h, l: bar.l, c: bar.c, v: bar.v, t: new Date(t).toISOString().replace('.000Z', 'Z'), n: bar.n, vw: bar.vw });
        sent++;
      }
      if (out.length) send(ws, out);
    }
  }
  return sent;
}
