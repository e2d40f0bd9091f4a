/**
 * @module providers/live/socket
 * One WebSocket to a vendor's stream, kept open: connect, authenticate when
 * the server says it is connected, subscribe, hand every data message on; and
 * when it breaks, come back without hammering the vendor.
 *
 * - A dropped or failed connection is retried after a "full jitter" backoff:
 *   a uniform delay in [0, min(maxMs, baseMs × 2^attempt)) (M. Brooker,
 *   "Exponential Backoff And Jitter", AWS Architecture Blog, 2015), so many
 *   clients do not return in step. The count starts again once data flows.
 * - A silent socket (no trade, quote or bar for `silentMs` while a session is
 *   on; control frames do not count, as in alpaca-py's `data_timeout`) is
 *   closed and reconnected: a connection can stay open while the vendor has
 *   stopped sending.
 * - No authentication within `authTimeoutMs` of opening: closed and retried.
 * - A refusal that asking again at once cannot cure (bad keys, a plan
 *   without the feed, the account's connections used up elsewhere) is kept as
 *   the state with the vendor's words (health reports it) and retried only
 *   after `refusedRetryMs`: never a retry storm, never a crash.
 * - A symbol-limit refusal leaves the subscriptions as they were (Alpaca 405:
 *   "your symbol subscriptions are the same as they were before"): the
 *   socket goes back to the last set the server confirmed and says so.
 * - Each reconnection authenticates and subscribes again from scratch.
 */
import type { Logger } from '../../log';
import type { LiveTrade, RefusalReason, StreamMessage, Subscriptions, WireProtocol } from './types';

export type SocketState = 'idle' | 'connecting' | 'streaming' | 'reconnecting' | 'refused';

export interface SocketOptions {
  protocol: WireProtocol;
  log: Logger;
  /** No data message for this long during a session: reconnect. */
  silentMs: number;
  /** Whether a session is on at `now` (the silence rule applies only then). */
  inSession: (now: number) => boolean;
  backoff?: { baseMs: number; maxMs: number };
  /** Wait after a refusal for keys, plan or connections. */
  refusedRetryMs?: number;
  authTimeoutMs?: number;
  now?: () => number;
  random?: () => number;
}

export interface SocketHandlers {
  trade(trade: LiveTrade): void;
  minute(message: Extract<StreamMessage, { kind: 'minute' }>): void;
  /** Authenticated and subscribed: data flows from here (after a reconnection too). */
  up(): void;
  /** A streaming connection was lost: what arrives next may have a gap before it. */
  down(reason: string): void;
  /** The vendor refused a subscription for its plan's symbol limit; `kept` is what it still holds. */
  symbolLimit(kept: Subscriptions, message: string): void;
}

const EMPTY: Subscriptions = { bars: new Set(), trades: new Set() };
/** After these refusals the socket waits `refusedRetryMs` instead of backing off. */
const LASTING: ReadonlySet<RefusalReason> = new Set(['auth', 'plan', 'connections']);

export class VendorSocket {
  state: SocketState = 'idle';
  /** The vendor's last refusal, or the last fault, in its words. */
  message: string | undefined;
  lastDataAt: number | null = null;
  private ws: WebSocket | undefined;
  /** Each connection's number: events of a connection already replaced are ignored. */
  private generation = 0;
  private attempt = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private watchdog: ReturnType<typeof setInterval> | undefined;
  private openedAt = 0;
  private authenticated = false;
  private wanted: Subscriptions = EMPTY;
  /** What this connection has asked for, and what the server last confirmed. */
  private sent: Subscriptions = EMPTY;
  private confirmed: Subscriptions = EMPTY;
  private readonly now: () => number;

  constructor(
    private readonly options: SocketOptions,
    private readonly handlers: SocketHandlers,
  ) {
    this.now = options.now ?? Date.now;
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.watchdog = setInterval(() => this.watch(), Math.max(50, Math.min(1000, this.options.silentMs / 4)));
    this.watchdog.unref?.();
    this.connect();
  }

  stop(): void {
    clearInterval(this.watchdog);
    clearTimeout(this.retry);
    this.generation++;
    this.ws?.close(1000, 'stopping');
    this.ws = undefined;
    this.state = 'idle';
  }

  /** The subscriptions wanted; sent now when streaming, else on the next connection. */
  subscribe(next: Subscriptions): void {
    this.wanted = next;
    if (this.state === 'streaming') this.send(this.options.protocol.resubscribe(this.sent, next), next);
  }

  private connect(): void {
    const generation = ++this.generation;
    const { protocol, log } = this.options;
    this.state = this.state === 'refused' ? 'refused' : this.attempt === 0 ? 'connecting' : 'reconnecting';
    this.authenticated = false;
    this.sent = EMPTY;
    this.confirmed = EMPTY;
    this.openedAt = this.now();
    let ws: WebSocket;
    try {
      ws = new WebSocket(protocol.url);
    } catch (error) {
      this.fault(`cannot open ${protocol.url}: ${(error as Error).message}`);
      return;
    }
    this.ws = ws;
    ws.onmessage = (event) => {
      if (generation !== this.generation) return;
      try {
        this.receive(typeof event.data === 'string' ? event.data : Buffer.from(event.data as ArrayBuffer).toString('utf8'));
      } catch (error) {
        // A fault in what a message sets off is logged, never thrown into the socket's event loop (it would end the process).
        log.error('vendor stream: handling a message failed', { vendor: protocol.vendor, error: String(error) });
      }
    };
    ws.onclose = (event) => {
      if (generation !== this.generation) return;
      const why = `closed (${event.code}${event.reason ? ` ${event.reason}` : ''})`;
      if (this.state === 'streaming') this.handlers.down(why);
      if (this.state === 'refused') this.scheduleRetry(this.options.refusedRetryMs ?? 300_000);
      else this.fault(why);
    };
    ws.onerror = () => {
      if (generation === this.generation) log.debug('vendor stream: socket error', { vendor: protocol.vendor });
    };
  }

  private receive(frame: string): void {
    for (const message of this.options.protocol.parse(frame)) {
      switch (message.kind) {
        case 'trade':
          this.data();
          this.handlers.trade(message.trade);
          break;
        case 'minute':
          this.data();
          this.handlers.minute(message);
          break;
        case 'quote':
          this.data();
          break;
        case 'connected':
          this.write(this.options.protocol.auth());
          break;
        case 'authenticated':
          this.authenticated = true;
          this.state = 'streaming';
          this.message = undefined;
          this.lastDataAt = this.now(); // the silence clock starts here
          this.send(this.options.protocol.resubscribe(EMPTY, this.wanted), this.wanted);
          this.options.log.info('vendor stream: streaming', { vendor: this.options.protocol.vendor, bars: this.wanted.bars.size, trades: this.wanted.trades.size });
          this.handlers.up();
          break;
        case 'subscribed':
          // What the server says it holds (Alpaca lists it all), else what was asked.
          this.confirmed = message.held ?? this.sent;
          break;
        case 'refused':
          this.refused(message.reason, message.message);
          break;
      }
    }
  }

  private data(): void {
    this.lastDataAt = this.now();
    this.attempt = 0;
  }

  private send(messages: string[], next: Subscriptions): void {
    for (const text of messages) this.write(text);
    this.sent = next;
  }

  /** Sends on the open socket; nothing while it is not open (its close reconnects, and subscribes from scratch). */
  private write(text: string): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  private refused(reason: RefusalReason, said: string): void {
    const { log, protocol } = this.options;
    const vendor = protocol.vendor;
    if (reason === 'symbols') {
      this.sent = this.confirmed;
      log.warn('vendor stream: symbol limit of the plan reached; subscriptions kept as they were', { vendor, message: said });
      this.handlers.symbolLimit(this.confirmed, said);
      return;
    }
    this.message = `${vendor} stream: ${said}`;
    if (LASTING.has(reason)) {
      if (this.state !== 'refused') log.error('vendor stream refused; trying again later', { vendor, reason, message: said, retryInMs: this.options.refusedRetryMs ?? 300_000 });
      if (this.state === 'streaming') this.handlers.down(said);
      this.state = 'refused';
    } else log.warn('vendor stream error; reconnecting', { vendor, message: said });
    this.ws?.close(1000, reason);
  }

  /** A connection lost or failed: reconnect after a jittered backoff. */
  private fault(why: string): void {
    const { backoff = { baseMs: 1000, maxMs: 30_000 }, log, protocol } = this.options;
    this.message ??= `${protocol.vendor} stream: ${why}`;
    this.state = 'reconnecting';
    const cap = Math.min(backoff.maxMs, backoff.baseMs * 2 ** this.attempt);
    const delay = Math.floor((this.options.random ?? Math.random)() * cap);
    this.attempt++;
    log.warn('vendor stream: reconnecting', { vendor: protocol.vendor, reason: why, attempt: this.attempt, delayMs: delay });
    this.scheduleRetry(delay);
  }

  private scheduleRetry(delay: number): void {
    clearTimeout(this.retry);
    this.ws = undefined;
    this.retry = setTimeout(() => this.connect(), delay);
  }

  /** Silence during a session, or no authentication in time: close, and the close reconnects. */
  private watch(): void {
    const now = this.now();
    const { silentMs, authTimeoutMs = 10_000, inSession, protocol } = this.options;
    if (!this.ws || this.state === 'refused') return;
    if (!this.authenticated && now - this.openedAt > authTimeoutMs) {
      this.message = `${protocol.vendor} stream: no authentication within ${authTimeoutMs} ms`;
      this.ws.close(4000, 'auth timeout');
    } else if (this.state === 'streaming' && this.lastDataAt !== null && now - this.lastDataAt > silentMs && inSession(now)) {
      this.message = `${protocol.vendor} stream: silent for ${Math.round((now - this.lastDataAt) / 1000)} s during the session`;
      this.options.log.warn('vendor stream: silent socket; reconnecting', { vendor: protocol.vendor, silentMs: now - this.lastDataAt });
      this.ws.close(4001, 'silent');
    }
  }
}
