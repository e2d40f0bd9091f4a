/**
 * @module providers/live/feed
 * A vendor's live feed (`LiveFeed`), the same for every vendor: one
 * reconnecting socket (./socket) speaking the vendor's wire protocol, its
 * minute bars rolled up on the session (./aggregator), its trades handed to
 * whoever watches the symbol, and every gap filled over REST before a window
 * may close.
 *
 * - Subscriptions: minute bars for the universe and every watched symbol;
 *   trades for the watched symbols, the most-watched first, up to the plan's
 *   limit (`tradeLimit`; Alpaca's free IEX plan allows 30 symbols for trades
 *   and quotes, bars unlimited). A watched symbol beyond the limit is quoted
 *   from its minute bars' closes. They change as symbols are watched and
 *   forgotten, and a symbol-limit refusal lowers the limit to what the vendor
 *   kept.
 * - Gaps: when a streaming connection is lost, the minutes from the last one
 *   received to the reconnection are asked over REST (`backfill`) as soon as
 *   the stream is back, and no window closes until they are in (a scan never
 *   runs on a series with a hole). The first connection during a session
 *   fills the day so far the same way. A failed backfill is asked again every
 *   `BACKFILL_RETRY_MS` (health says so meanwhile).
 */
import type { Timeframe } from '../../domain/signal';
import type { Logger } from '../../log';
import { SessionCalendar } from '../session-buckets';
import { SessionAggregator } from './aggregator';
import { LatestQuotes } from './latest';
import { Listeners } from './listeners';
import { TRADE_LATE_MS, TradeMinutes } from './trade-minutes';
import type { VendorBar } from './bars';
import { VendorSocket, type SocketOptions } from './socket';
import type { LiveBar, LiveDay, LiveFeed, LiveStatus, LiveTrade, StreamMessage, Subscriptions, WindowClose, WireProtocol } from './types';

/** Wait before asking a failed backfill again. */
export const BACKFILL_RETRY_MS = 30_000;
const MINUTE_MS = 60_000;

/** Minutes of `symbols` with a start in [from, to], over the vendor's REST API. */
export type Backfill = (symbols: readonly string[], from: number, to: number) => Promise<Map<string, VendorBar[]>>;

export interface FeedOptions extends Pick<SocketOptions, 'backoff' | 'refusedRetryMs' | 'authTimeoutMs' | 'random'> {
  protocol: WireProtocol;
  backfill: Backfill;
  log: Logger;
  /** Roll up (and count as session) the extended hours too. */
  extendedHours: boolean;
  silentMs: number;
  /** Trade subscriptions the plan allows (null: no limit). */
  tradeLimit: number | null;
  /**
   * Minute bars made from the universe's trades (./trade-minutes) instead of
   * the vendor's: trades are subscribed for the universe and the watched
   * symbols (within `tradeLimit`), no bars; windows close `TRADE_LATE_MS`
   * later, once the reporting window of their last minute has passed.
   */
  barsFromTrades?: boolean;
  /** How long after a window's end it closes (late minutes). */
  graceMs?: number;
  /** Wait before asking a failed backfill again (default `BACKFILL_RETRY_MS`). */
  backfillRetryMs?: number;
  timeframes?: readonly Timeframe[];
  now?: () => number;
}

export class VendorFeed implements LiveFeed {
  readonly vendor: string;
  private readonly socket: VendorSocket;
  private aggregator: SessionAggregator;
  /** Minutes made from trades, when the feed makes its own (`barsFromTrades`). */
  private readonly tradeMinutes: TradeMinutes | undefined;
  private readonly latestQuotes: LatestQuotes;
  private readonly calendar: SessionCalendar;
  private readonly universe = new Set<string>();
  private readonly watchers = new Map<string, Set<(trade: LiveTrade) => void>>();
  private readonly bars = new Listeners<LiveBar>();
  private readonly closes = new Listeners<WindowClose>();
  /** Size of the trades seen since the symbol's last minute bar (the quote's session volume is the minutes' plus these). */
  private readonly tradedSinceBar = new Map<string, number>();
  private tradeLimit: number | null;
  private subscribed: Subscriptions = { bars: new Set(), trades: new Set() };
  private lastMinuteAt: number | null = null;
  /** Where the owed backfill starts, or null when none is owed. */
  private gapFrom: number | null = null;
  private filling: Promise<void> | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private lastBackfillAt: number | null = null;
  private backfillFault: string | undefined;
  private started = false;
  private readonly now: () => number;

  constructor(private readonly options: FeedOptions) {
    this.vendor = options.protocol.vendor;
    this.now = options.now ?? Date.now;
    this.tradeLimit = options.tradeLimit;
    this.calendar = new SessionCalendar(options.extendedHours);
    this.aggregator = this.freshAggregator();
    this.latestQuotes = new LatestQuotes(this.now);
    this.bars.add((bar) => this.latestQuotes.bar(bar));
    if (options.barsFromTrades) this.tradeMinutes = new TradeMinutes({ emit: (symbol, bar) => this.minute({ kind: 'minute', symbol, bar, revised: false }) });
    this.socket = new VendorSocket(
      { ...options, inSession: (now) => this.calendar.dayOf(now) !== null },
      {
        trade: (trade) => this.trade(trade),
        minute: (message) => this.minute(message),
        up: () => this.up(),
        down: (reason) => this.down(reason),
        symbolLimit: (kept, message) => this.symbolLimit(kept, message),
      },
    );
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.ticker = setInterval(() => this.tick(), 100);
    this.ticker.unref?.();
    this.socket.subscribe(this.wanted());
    this.socket.start();
  }

  /** Closes the windows that are due; a listener's fault is logged, never thrown out of the timer. */
  private tick(): void {
    try {
      const now = this.now();
      this.tradeMinutes?.flush(now);
      this.aggregator.tick(now);
    } catch (error) {
      this.options.log.error('vendor stream: closing bars failed', { vendor: this.vendor, error: String(error) });
    }
  }

  /**
   * Stops the stream and forgets the session: a feed started again (another
   * term of the cluster's vendor connection, ./cluster) starts as a first
   * connection does, filling the session so far over REST, since what was
   * missed while stopped is unknown.
   */
  async stop(): Promise<void> {
    this.started = false;
    clearInterval(this.ticker);
    clearTimeout(this.retry);
    this.socket.stop();
    await this.filling;
    this.aggregator = this.freshAggregator();
    this.tradedSinceBar.clear();
    this.tradeMinutes?.clear();
    this.lastMinuteAt = null;
    this.gapFrom = null;
    this.backfillFault = undefined;
  }

  private freshAggregator(): SessionAggregator {
    return new SessionAggregator({
      timeframes: this.options.timeframes ?? ['1h', '4h', 'daily'],
      calendar: this.calendar,
      graceMs: (this.options.graceMs ?? 500) + (this.options.barsFromTrades ? TRADE_LATE_MS : 0),
      heardSince: (at) => this.socket.state === 'streaming' && (this.socket.lastDataAt ?? -Infinity) >= at,
      emitBar: (bar) => this.bars.emit(bar),
      emitClose: (close) => this.closes.emit(close),
    });
  }

  setUniverse(symbols: Iterable<string>): void {
    this.universe.clear();
    for (const symbol of symbols) this.universe.add(symbol);
    this.resubscribe();
  }

  watch(symbol: string, onTrade: (trade: LiveTrade) => void): () => void {
    let set = this.watchers.get(symbol);
    if (!set) this.watchers.set(symbol, (set = new Set()));
    set.add(onTrade);
    this.resubscribe();
    return () => {
      const held = this.watchers.get(symbol);
      if (!held?.delete(onTrade)) return;
      if (held.size === 0) this.watchers.delete(symbol);
      this.resubscribe();
    };
  }

  onBar(listener: (bar: LiveBar) => void): () => void {
    return this.bars.add(listener);
  }

  onClose(listener: (close: WindowClose) => void): () => void {
    return this.closes.add(listener);
  }

  backfilling(): boolean {
    return this.aggregator.held;
  }

  latest(symbol: string, now: number): LiveDay | undefined {
    return this.started ? this.latestQuotes.get(symbol, now) : undefined;
  }

  status(): LiveStatus {
    const state = this.socket.state === 'streaming' && this.aggregator.held ? 'backfilling' : this.socket.state;
    return {
      vendor: this.vendor,
      state,
      message: state === 'backfilling' ? this.backfillFault ?? 'filling a gap in the minute bars over REST' : this.socket.message,
      barSymbols: this.subscribed.bars.size,
      tradeSymbols: this.subscribed.trades.size,
      tradeLimit: this.tradeLimit,
      lastMessageAt: this.socket.lastDataAt,
      lastBackfillAt: this.lastBackfillAt,
    };
  }

  /** The subscriptions the watched set and universe call for, within the trade limit. */
  private wanted(): Subscriptions {
    const bars = new Set([...this.universe, ...this.watchers.keys()]);
    const byWatchers = [...this.watchers].sort(([a, x], [b, y]) => y.size - x.size || (a < b ? -1 : 1)).map(([symbol]) => symbol);
    if (this.options.barsFromTrades) {
      // Every bar comes from trades: the universe first (a symbol left out has no bars), then the most-watched.
      const wanted = [...new Set([...[...this.universe].sort(), ...byWatchers])];
      return { bars: new Set(), trades: new Set(this.tradeLimit === null ? wanted : wanted.slice(0, this.tradeLimit)) };
    }
    const trades = new Set(this.tradeLimit === null ? byWatchers : byWatchers.slice(0, this.tradeLimit));
    return { bars, trades };
  }

  private resubscribe(): void {
    this.subscribed = this.wanted();
    if (this.started) this.socket.subscribe(this.subscribed);
  }

  private trade(trade: LiveTrade): void {
    let traded: number;
    if (this.tradeMinutes) {
      // The day's volume is its finished minutes' and the forming ones' (the trades a bar counts).
      this.tradeMinutes.add(trade);
      traded = this.tradeMinutes.formingVolume(trade.symbol);
    } else {
      traded = (this.tradedSinceBar.get(trade.symbol) ?? 0) + trade.size;
      this.tradedSinceBar.set(trade.symbol, traded);
    }
    this.latestQuotes.trade(trade);
    const watchers = this.watchers.get(trade.symbol);
    if (!watchers) return;
    const quoted = { ...trade, dayVolume: this.aggregator.dayVolume(trade.symbol, trade.ts) + traded };
    for (const watcher of watchers) watcher(quoted);
  }

  private minute({ symbol, bar }: Extract<StreamMessage, { kind: 'minute' }>): void {
    this.lastMinuteAt = Math.max(this.lastMinuteAt ?? -Infinity, bar.t);
    this.tradedSinceBar.delete(symbol);
    this.aggregator.add(symbol, bar);
    // A watched symbol without a trade subscription is quoted from its minutes.
    const watchers = this.watchers.get(symbol);
    if (watchers && !this.subscribed.trades.has(symbol)) {
      const quoted = { symbol, price: bar.c, size: 0, ts: bar.t + MINUTE_MS - 1, dayVolume: this.aggregator.dayVolume(symbol, bar.t) };
      for (const watcher of watchers) watcher(quoted);
    }
  }

  private up(): void {
    const now = this.now();
    if (this.gapFrom === null && this.lastMinuteAt === null) {
      // The first connection: fill the session so far (nothing to fill outside one).
      const day = this.calendar.dayOf(now);
      if (day) this.gapFrom = day.from;
    }
    if (this.gapFrom !== null) this.fill();
  }

  private down(reason: string): void {
    // From the last minute received (it may have been revised since), else from now; an earlier gap still owed stands.
    const from = this.lastMinuteAt ?? this.now();
    this.gapFrom = Math.min(this.gapFrom ?? from, from);
    this.aggregator.held = true;
    this.options.log.warn('vendor stream: gap in the minute bars', { vendor: this.vendor, reason, from: new Date(this.gapFrom).toISOString() });
  }

  private symbolLimit(kept: Subscriptions, message: string): void {
    this.tradeLimit = kept.trades.size;
    this.options.log.warn('vendor stream: trade subscriptions limited by the plan', { vendor: this.vendor, limit: this.tradeLimit, message });
    this.resubscribe();
  }

  /** Asks the gap's minutes over REST, rolls them in, then lets windows close. */
  private fill(): void {
    if (this.filling || this.gapFrom === null) return;
    const from = this.gapFrom;
    const to = this.now();
    const symbols = [...this.subscribed.bars];
    this.gapFrom = null; // owed again if this fails, or if the stream drops meanwhile (`down`)
    this.aggregator.held = true;
    this.filling = this.options
      .backfill(symbols, from, to)
      .then((minutes) => {
        let count = 0;
        for (const [symbol, bars] of minutes) {
          for (const bar of bars) this.aggregator.add(symbol, bar);
          count += bars.length;
          if (bars.length) this.lastMinuteAt = Math.max(this.lastMinuteAt ?? -Infinity, bars.at(-1)!.t);
        }
        // Another gap opened while this one was filled: windows stay held until the next reconnection fills it.
        this.aggregator.held = this.gapFrom !== null;
        this.backfillFault = undefined;
        this.lastBackfillAt = this.now();
        this.options.log.info('vendor stream: gap filled over REST', { vendor: this.vendor, from: new Date(from).toISOString(), to: new Date(to).toISOString(), symbols: symbols.length, minutes: count });
        this.tick();
      })
      .catch((error: unknown) => {
        this.gapFrom = Math.min(this.gapFrom ?? from, from);
        const retryMs = this.options.backfillRetryMs ?? BACKFILL_RETRY_MS;
        this.backfillFault = `${this.vendor}: filling a gap over REST failed (${String(error)}); asking again in ${retryMs / 1000} s`;
        this.options.log.warn('vendor stream: backfill failed; asking again', { vendor: this.vendor, error: String(error), retryInMs: retryMs });
        this.retry = setTimeout(() => this.fill(), retryMs);
      })
      .finally(() => {
        this.filling = undefined;
        // A gap that opened and closed again while this one filled is filled next (a failure waits for its retry).
        if (this.backfillFault === undefined && this.gapFrom !== null && this.socket.state === 'streaming') this.fill();
      });
  }
}
