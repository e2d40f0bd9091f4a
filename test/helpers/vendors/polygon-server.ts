/**
 * @module test/helpers/vendors/polygon-server
 * A loopback server speaking Polygon's (Massive's) REST API (./polygon-rest)
 * and replaying the recordings: the six symbols' 5-minute aggregates and the
 * SPY minutes. Nothing leaves loopback; the port is the system's choice.
 */
import { TooManyRequests } from './paging';
import { polygonRest, type PolygonRestState } from './polygon-rest';
import { alpacaMinutes, POLYGON_SYMBOLS, polygonFiveMinutes } from './recordings';

export interface PolygonServerOptions {
  now: () => number;
}

export interface PolygonServer {
  restUrl: string;
  apiKey: string;
  state: PolygonRestState;
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
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => polygonRest(state, request) ?? Response.json({ status: 'ERROR', error: 'not found' }, { status: 404 }),
  });
  return { restUrl: `http://127.0.0.1:${server.port}`, apiKey, state, stop: () => server.stop(true) };
}
