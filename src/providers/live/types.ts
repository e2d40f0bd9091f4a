/**
 * @module providers/live/types
 * The one narrow interface between a vendor's stream and the rest of the
 * service (`LiveFeed`): minute bars rolled up into 1h, 4h and daily bars
 * (forming, then closed), a window's close for the whole universe (when a
 * timeframe's scan may run), and trades for the symbols someone watches. And
 * the vocabulary each vendor's wire protocol is parsed into (`StreamMessage`),
 * so the reconnecting socket (./socket) and the feed (./feed) are the same
 * for every vendor.
 */
import type { Timeframe } from '../../domain/signal';

/** One vendor bar (Alpaca's and Polygon's alike): its window start (epoch ms) and OHLCV. */
export interface VendorBar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** A trade printed on the tape (Alpaca `t`, Polygon `T.`). */
export interface LiveTrade {
  symbol: string;
  price: number;
  size: number;
  /** Epoch ms. */
  ts: number;
  /** The session's volume so far, where the feed knows it (its minutes, and the trades since the last). */
  dayVolume?: number;
  /** The trade's sale conditions as SIP letters (Alpaca's `c` as sent; Polygon's ids turned into theirs, providers/polygon/conditions), where the vendor sends them: which count in a bar (./trade-minutes). */
  conditions?: string[];
}

/** Why a vendor refused: the service cannot fix it by asking again at once. */
export type RefusalReason = 'auth' | 'plan' | 'connections' | 'symbols' | 'other';

/** What one vendor frame says, vendor-neutral. */
export type StreamMessage =
  | { kind: 'connected' }
  | { kind: 'authenticated' }
  /** A subscription confirmed; `held`: every subscription the server says the connection holds, when it says. */
  | { kind: 'subscribed'; detail: string; held?: Subscriptions }
  | { kind: 'refused'; reason: RefusalReason; message: string; code?: number }
  | { kind: 'trade'; trade: LiveTrade }
  | { kind: 'quote'; symbol: string; bid: number; ask: number; ts: number }
  /** A minute bar; `revised` when it corrects one already sent (Alpaca's updatedBars). */
  | { kind: 'minute'; symbol: string; bar: VendorBar; revised: boolean }
  | { kind: 'other' };

/** What a connection should be subscribed to. */
export interface Subscriptions {
  /** Minute bars: the universe and every watched symbol. */
  bars: ReadonlySet<string>;
  /** Trades: the watched symbols, within the plan's limit. */
  trades: ReadonlySet<string>;
}

/** A vendor's wire protocol: its messages to send and the framing of what it sends, parsed in one place. */
export interface WireProtocol {
  readonly vendor: string;
  /** The stream's URL. */
  readonly url: string;
  /** The authentication message, sent once the server says it is connected. */
  auth(): string;
  /** The messages that move a connection from `from` to `to` (subscribe what is new, unsubscribe what is gone). */
  resubscribe(from: Subscriptions, to: Subscriptions): string[];
  /** Every message of one text frame. */
  parse(frame: string): StreamMessage[];
}

/** A bar of a timeframe rolled up from minutes; `final` once its window has closed. */
export interface LiveBar {
  symbol: string;
  timeframe: Timeframe;
  bar: VendorBar;
  final: boolean;
  /** A correction of a bar already closed (a late or revised minute). */
  revised: boolean;
}

/** A timeframe's window has closed for the whole universe, and no gap is left in it. */
export interface WindowClose {
  timeframe: Timeframe;
  /** The window's start and end, epoch ms. */
  start: number;
  end: number;
}

export type LiveState = 'idle' | 'connecting' | 'streaming' | 'backfilling' | 'reconnecting' | 'refused';

export interface LiveStatus {
  vendor: string;
  state: LiveState;
  /** The vendor's last refusal or the last fault, in its words. */
  message?: string;
  /** Symbols subscribed for minute bars and for trades, and the plan's trade limit (null: none). */
  barSymbols: number;
  tradeSymbols: number;
  tradeLimit: number | null;
  /** Epoch ms of the last message, and of the last gap closed by a backfill. */
  lastMessageAt: number | null;
  lastBackfillAt: number | null;
}

/** A symbol's session so far as the live stream has seen it (./latest). */
export interface LiveDay {
  /** The session's New York date. */
  date: string;
  open: number;
  high: number;
  low: number;
  volume: number;
  price: number;
  /** Epoch ms of the price (a trade's time, or when the minute's bar came). */
  ts: number;
}

/** A vendor's live stream, rolled up: what the service reads of it. */
export interface LiveFeed {
  readonly vendor: string;
  start(): void;
  stop(): Promise<void>;
  /** Minute bars of these symbols are rolled up (the scan's universe). */
  setUniverse(symbols: Iterable<string>): void;
  /** Trades of `symbol` go to `onTrade` until the returned function is called. */
  watch(symbol: string, onTrade: (trade: LiveTrade) => void): () => void;
  onBar(listener: (bar: LiveBar) => void): () => void;
  onClose(listener: (close: WindowClose) => void): () => void;
  status(): LiveStatus;
  /** Whether a gap is being filled over REST (no window closes meanwhile). */
  backfilling(): boolean;
  /** The symbol's session so far as the stream has seen it, when it has (./latest). */
  latest(symbol: string, now: number): LiveDay | undefined;
}
