/**
 * @module providers/alpaca/stream
 * Alpaca Market Data v2's stock stream, `wss://stream.data.alpaca.markets/v2/{feed}`
 * (`iex` on the free plan, `sip` paid), as a wire protocol: what to send, and
 * every frame parsed here and nowhere else. From the documentation
 * (alpacahq/alpaca-docs, market-data-api/stock-pricing-data/realtime.md;
 * docs.alpaca.markets "WebSocket Stream" and "Real-time Stock Data"):
 *
 * - Every server frame is a JSON array `[{"T": type, …}, …]`; control messages
 *   (`success`, `error`, `subscription`) arrive alone, data points in batches.
 * - Flow: `[{"T":"success","msg":"connected"}]` → send
 *   `{"action":"auth","key","secret"}` → `[{"T":"success","msg":"authenticated"}]`
 *   → send `{"action":"subscribe","trades":[…],"bars":[…],"updatedBars":[…]}` →
 *   `[{"T":"subscription",…}]` listing every subscription held.
 * - Data: `t` trade (`S`, `p`, `s`, `t` RFC-3339), `q` quote (`bp`, `ap`), `b`
 *   minute bar (`o`, `h`, `l`, `c`, `v`, `t` = the minute's start), `u` an
 *   updated bar (late trades, sent ~30 s after the minute: forum.alpaca.markets
 *   "Alpaca Market Data Update: Bars"), `d` daily bar, `s` status.
 * - Errors `[{"T":"error","code":…,"msg":…}]`: 400 invalid syntax, 401 not
 *   authenticated, 402 auth failed, 403 already authenticated, 404 auth
 *   timeout, 405 symbol limit exceeded (subscriptions stay as they were),
 *   406 connection limit exceeded (one connection per feed on most plans),
 *   407 slow client, 408 v2 not enabled, 409 insufficient subscription,
 *   500 internal error.
 */
import { frameMessages, wireNumber } from '../live/payload';
import type { RefusalReason, StreamMessage, Subscriptions, WireProtocol } from '../live/types';
import type { AlpacaFeed } from './rest';

/** What a refusal code means for the connection (the rest are faults a reconnect may cure). */
const REFUSALS: Record<number, RefusalReason> = { 402: 'auth', 405: 'symbols', 406: 'connections', 408: 'plan', 409: 'plan' };

export interface AlpacaStreamOptions {
  keyId: string;
  secretKey: string;
  /** `wss://stream.data.alpaca.markets` (the feed is appended: `/v2/iex`). */
  streamUrl: string;
  feed: AlpacaFeed;
}

const num = wireNumber;

function message(raw: Record<string, unknown>): StreamMessage {
  switch (raw.T) {
    case 'success':
      return raw.msg === 'connected' ? { kind: 'connected' } : raw.msg === 'authenticated' ? { kind: 'authenticated' } : { kind: 'other' };
    case 'subscription': {
      const symbols = (key: string) => new Set(Array.isArray(raw[key]) ? (raw[key] as unknown[]).map(String) : []);
      const held = { trades: symbols('trades'), bars: symbols('bars') };
      return { kind: 'subscribed', detail: `trades ${held.trades.size}, bars ${held.bars.size}`, held };
    }
    case 'error': {
      const code = num(raw.code);
      return { kind: 'refused', reason: REFUSALS[code] ?? 'other', code, message: `${code} ${String(raw.msg ?? 'error')}` };
    }
    case 't':
      return { kind: 'trade', trade: { symbol: String(raw.S), price: num(raw.p), size: num(raw.s), ts: Date.parse(String(raw.t)), conditions: Array.isArray(raw.c) ? raw.c.map(String) : undefined } };
    case 'q':
      return { kind: 'quote', symbol: String(raw.S), bid: num(raw.bp), ask: num(raw.ap), ts: Date.parse(String(raw.t)) };
    case 'b':
    case 'u':
      return {
        kind: 'minute',
        symbol: String(raw.S),
        bar: { t: Date.parse(String(raw.t)), o: num(raw.o), h: num(raw.h), l: num(raw.l), c: num(raw.c), v: num(raw.v) },
        revised: raw.T === 'u',
      };
    default:
      return { kind: 'other' };
  }
}

export class AlpacaStream implements WireProtocol {
  readonly vendor = 'alpaca';
  readonly url: string;

  constructor(private readonly options: AlpacaStreamOptions) {
    this.url = `${options.streamUrl.replace(/\/+$/, '')}/v2/${options.feed}`;
  }

  auth(): string {
    return JSON.stringify({ action: 'auth', key: this.options.keyId, secret: this.options.secretKey });
  }

  resubscribe(from: Subscriptions, to: Subscriptions): string[] {
    const added = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...b].filter((s) => !a.has(s));
    const out: string[] = [];
    const gone = { trades: added(to.trades, from.trades), bars: added(to.bars, from.bars) };
    if (gone.trades.length || gone.bars.length) out.push(JSON.stringify({ action: 'unsubscribe', trades: gone.trades, bars: gone.bars, updatedBars: gone.bars }));
    const fresh = { trades: added(from.trades, to.trades), bars: added(from.bars, to.bars) };
    if (fresh.trades.length || fresh.bars.length) out.push(JSON.stringify({ action: 'subscribe', trades: fresh.trades, bars: fresh.bars, updatedBars: fresh.bars }));
    return out;
  }

  parse(frame: string): StreamMessage[] {
    return frameMessages(frame, message);
  }

}
