/**
 * @module test/helpers/vendors/alpaca-server
 * A loopback server speaking Alpaca Market Data v2 — its REST API
 * (./alpaca-rest) and its stock stream at `/v2/{feed}` (./alpaca-stream) — and
 * replaying the recorded SPY minutes. Nothing leaves loopback; the port is the
 * system's choice.
 *
 * @example
 * const alpaca = startAlpacaServer({ now: () => clock.now });
 * createAlpacaProvider({ ...alpaca.credentials, dataUrl: alpaca.restUrl, streamUrl: alpaca.streamUrl, … });
 * alpaca.minute(Date.parse('2025-04-24T13:30:00Z')); // the 09:30 bar to every subscriber
 * alpaca.stop();
 */
import { createAlpacaProvider, type AlpacaProvider, type AlpacaProviderOptions } from '../../../src/providers/alpaca';
import { alpacaRest, type AlpacaRestState } from './alpaca-rest';
import { alpacaStreamHandlers, replayMinute, sendTrades, type AlpacaSession, type AlpacaStreamState, type WireTrade } from './alpaca-stream';
import { TooManyRequests } from './paging';
import { alpacaMinutes, type RecordedBar } from './recordings';

export interface AlpacaServerOptions {
  now: () => number;
  /** Recorded minutes by symbol (default: the recorded SPY minutes). */
  minutes?: Map<string, RecordedBar[]>;
  /** Trades + quotes symbols a session may subscribe (the free plan's 30); default no limit. */
  symbolLimit?: number | null;
}

export interface AlpacaServer {
  restUrl: string;
  /** The stream's base (`ws://…`): a client appends `/v2/{feed}`. */
  streamUrl: string;
  credentials: { keyId: string; secretKey: string };
  state: AlpacaRestState;
  stream: AlpacaStreamState;
  /** Sends the recorded minute starting at `t` (`b`, or `u` as an updated bar). */
  minute(t: number, type?: 'b' | 'u'): number;
  /** Sends these trades to the sessions subscribed to them. */
  trades(trades: readonly WireTrade[]): number;
  /** Drops every connection without a goodbye (a network fault). */
  drop(): void;
  stop(): void;
}

export function startAlpacaServer(options: AlpacaServerOptions): AlpacaServer {
  const credentials = { keyId: 'PKTEST000LOOPBACK', secretKey: 'loopback-secret-never-logged' };
  const minutes = options.minutes ?? new Map([['SPY', alpacaMinutes()]]);
  const state: AlpacaRestState = { ...credentials, minutes, now: options.now, tooMany: new TooManyRequests(), requests: [] };
  const stream: AlpacaStreamState = { ...credentials, minutes, symbolLimit: options.symbolLimit ?? null, sockets: new Set(), received: [], authentications: 0, peakSockets: 0, limitRefusals: 0 };
  const server = Bun.serve<AlpacaSession>({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request, srv) {
      const { pathname } = new URL(request.url);
      if (/^\/v2\/(iex|sip|test)$/.test(pathname)) {
        const session: AlpacaSession = { authenticated: false, trades: new Set(), quotes: new Set(), bars: new Set() };
        return srv.upgrade(request, { data: session }) ? undefined : new Response('upgrade failed', { status: 400 });
      }
      return alpacaRest(state, request) ?? Response.json({ message: 'not found' }, { status: 404 });
    },
    websocket: alpacaStreamHandlers(stream),
  });
  return {
    restUrl: `http://127.0.0.1:${server.port}`,
    streamUrl: `ws://127.0.0.1:${server.port}`,
    credentials,
    state,
    stream,
    minute: (t, type) => replayMinute(stream, t, type),
    trades: (trades) => sendTrades(stream, trades),
    drop: () => {
      for (const ws of stream.sockets) ws.terminate();
    },
    stop: () => server.stop(true),
  };
}

/** The alpaca provider on this loopback server (the `sip` feed, split-adjusted, no practical rate limit), its live feed as `live` says. */
export function loopbackAlpaca(server: AlpacaServer, options: { clock?: () => number; live?: Omit<NonNullable<AlpacaProviderOptions['live']>, 'streamUrl'> }): AlpacaProvider {
  return createAlpacaProvider({
    ...server.credentials,
    dataUrl: server.restUrl,
    feed: 'sip',
    adjustment: 'split',
    ratePerMinute: 1_000_000,
    clock: options.clock,
    live: options.live && { ...options.live, streamUrl: server.streamUrl },
  });
}
