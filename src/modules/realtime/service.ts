/**
 * @module modules/realtime/service
 * Opens an SSE stream: reads the subscription (channels, symbols, where to
 * resume), refuses a bad one with a 400 before anything is streamed, and hands
 * the rest to the hub (stream/hub), which admits it or answers 503/429.
 */
import type { Static } from 'elysia';
import { AppError } from '../../errors';
import type { MarketData } from '../../market-data';
import { CHANNELS, isChannel, type Channel } from '../../stream/bus';
import type { StreamHub } from '../../stream/hub';
import { connectionKey, type StreamPrincipal } from '../../stream/visibility';
import type { StreamQuery } from './model';

/** What proxies and browsers need to pass the stream through unbuffered. */
const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  connection: 'keep-alive',
};

export interface StreamDeps {
  hub: StreamHub;
  marketData: MarketData;
  maxSymbols: number;
}

export interface StreamRequest {
  query: Static<typeof StreamQuery>;
  /** The `Last-Event-ID` header (wins over `query.lastEventId`). */
  lastEventIdHeader: string | undefined;
  /** Who holds the stream (null: anonymous, public data only). */
  principal: StreamPrincipal;
  /** The client's IP: the per-client cap counts under it when no one is signed in. */
  ip: string;
  /** Closes the socket of a client that stopped reading. */
  onDrop?: () => void;
}

/** The channels asked for: all when the parameter is absent, none when empty. */
export function parseChannels(csv: string | undefined): Channel[] {
  if (csv === undefined) return [...CHANNELS];
  const names = [...new Set(csv.split(',').filter((name) => name !== ''))];
  const unknown = names.find((name) => !isChannel(name));
  if (unknown !== undefined) throw new AppError('invalid_parameter', `Unknown channel '${unknown}'; channels: ${CHANNELS.join(', ')}`);
  return names.filter(isChannel);
}

/** The symbols asked for, upper-cased and once each; a 400 past the cap or for one the market does not list. */
export async function parseSymbols(csv: string | undefined, marketData: MarketData, maxSymbols: number): Promise<string[]> {
  const symbols = [...new Set((csv ?? '').split(',').filter((s) => s !== '').map((s) => s.toUpperCase()))];
  if (symbols.length > maxSymbols) throw new AppError('invalid_parameter', `Query parameter 'symbols' lists ${symbols.length} symbols; at most ${maxSymbols} per stream`);
  if (symbols.length === 0) return symbols;
  const listed = await marketData.instruments();
  const unknown = symbols.find((s) => !listed.has(s));
  if (unknown !== undefined) throw new AppError('invalid_parameter', `Unknown symbol '${unknown}' in 'symbols': not in this provider's universe`);
  return symbols;
}

export async function openStream({ hub, marketData, maxSymbols }: StreamDeps, request: StreamRequest): Promise<Response> {
  const channels = parseChannels(request.query.channels);
  const symbols = await parseSymbols(request.query.symbols, marketData, maxSymbols);
  const stream = await hub.open({
    channels,
    symbols,
    principal: request.principal,
    key: connectionKey(request.principal, request.ip),
    lastEventId: request.lastEventIdHeader ?? request.query.lastEventId ?? null,
    onDrop: request.onDrop,
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
