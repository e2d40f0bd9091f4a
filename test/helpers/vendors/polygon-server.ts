/**
 * @module test/helpers/vendors/polygon-server
 * A loopback server speaking Polygon's (Massive's) REST API (./polygon-rest)
 * and its stocks cluster at `/stocks` (./polygon-stream), replaying the
 * recordings: the six symbols' 5-minute aggregates and the SPY minutes.
 * Nothing leaves loopback; the port is the system's choice.
 */
import { TooManyRequests } from './paging';
import { polygonRest, type PolygonRestState } from './polygon-rest';
import { polygonStreamHandlers, replayPolygonMinute, type PolygonSession, type PolygonStreamState } from './polygon-stream';
import { alpacaMinutes, POLYGON_SYMBOLS, polygonFiveMinutes } from './recordings';

export interface PolygonServerOptions {
  now: () => number;
}

export interface PolygonServer {
  restUrl: string;
  /** The cluster host (`ws://…`): a client appends `/stocks`. */
  streamUrl: string;
  apiKey: string;
  state: PolygonRestState;
  stream: PolygonStreamState;
  /** Sends the recorded minute starting at `t` to every subscriber. */
  minute(t: number): number;
  /** Drops every connection without a goodbye (a network fault). */
  drop(): void;
  stop(): void;
}

export function startPolygonServer(options: PolygonServerOptions): PolygonServer {
  const apiKey = 'loopback-polygon-key-never-logged';
  const state: PolygonRestState = {
    apiKey,
    fiveMinutes: new Map(POLYGON_SYMBOLS.map((s) => [s, polygonFiveMinutes(s)])),
    minutes: new Map([['SPY', alpacaMinutes()]]),
    now: options.now,
    tooMany: new TooManyRequests(),
    requests: [],
  };
  const stream: PolygonStreamState = { apiKey, minutes: state.minutes, sockets: new Set(), received: [], authentications: 0 };
  const server = Bun.serve<PolygonSession>({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request, srv) {
      if (new URL(request.url).pathname === '/stocks') {
        return srv.upgrade(request, { data: { authenticated: false, channels: new Set<string>() } }) ? undefined : new Response('upgrade failed', { status: 400 });
      }
      return polygonRest(state, request) ?? Response.json({ status: 'ERROR', error: 'not found' }, { status: 404 });
    },
    websocket: polygonStreamHandlers(stream),
  });
  return {
    restUrl: `http://127.0.0.1:${server.port}`,
    streamUrl: `ws://127.0.0.1:${server.port}`,
    apiKey,
    state,
    stream,
    minute: (t) => replayPolygonMinute(stream, t),
    drop: () => {
      for (const ws of stream.sockets) ws.terminate();
    },
    stop: () => server.stop(true),
  };
}
