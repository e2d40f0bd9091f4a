/**
 * @module test/helpers/vendors/alpaca-server
 * A loopback server speaking Alpaca Market Data v2 — its REST API
 * (./alpaca-rest) — and replaying the recorded SPY minutes. Nothing leaves
 * loopback; the port is the system's choice.
 *
 * @example
 * const alpaca = startAlpacaServer({ now: () => Date.parse('2025-04-24T20:05:00Z') });
 * createAlpacaProvider({ ...alpaca.credentials, dataUrl: alpaca.restUrl, … });
 * alpaca.stop();
 */
import { alpacaRest, type AlpacaRestState } from './alpaca-rest';
import { TooManyRequests } from './paging';
import { alpacaMinutes, type RecordedBar } from './recordings';

export interface AlpacaServerOptions {
  now: () => number;
  /** Recorded minutes by symbol (default: the recorded SPY minutes). */
  minutes?: Map<string, RecordedBar[]>;
}

export interface AlpacaServer {
  restUrl: string;
  credentials: { keyId: string; secretKey: string };
  state: AlpacaRestState;
  stop(): void;
}

export function startAlpacaServer(options: AlpacaServerOptions): AlpacaServer {
  const credentials = { keyId: 'PKTEST000LOOPBACK', secretKey: 'loopback-secret-never-logged' };
  const state: AlpacaRestState = {
    ...credentials,
    minutes: options.minutes ?? new Map([['SPY', alpacaMinutes()]]),
    now: options.now,
    tooMany: new TooManyRequests(),
    requests: [],
  };
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => alpacaRest(state, request) ?? Response.json({ message: 'not found' }, { status: 404 }),
  });
  return { restUrl: `http://127.0.0.1:${server.port}`, credentials, state, stop: () => server.stop(true) };
}
