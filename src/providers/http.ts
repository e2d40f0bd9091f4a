/**
 * @module providers/http
 * The one HTTP client of the live adapters (Yahoo, SEC EDGAR, FINRA, Alpaca,
 * Polygon): a request-rate limit per vendor, a timeout, the vendor's required
 * headers, and every failure turned into a `ProviderError` that names the
 * vendor and symbol:
 *
 * | upstream | ProviderError code |
 * |---|---|
 * | 404 (or the caller's `notFound` statuses) | `unknown_symbol` |
 * | 401, 403 | `missing_credential` |
 * | 429, 5xx, timeout, connection error | `unavailable` |
 * | a body that is not the expected JSON/text | `bad_payload` |
 *
 * No retries, but one: a 429 that says when to come back (`Retry-After`,
 * RFC 9110 §10.2.3, in seconds or as an HTTP date; or Alpaca's
 * `X-RateLimit-Reset`, the epoch second the window resets, docs.alpaca.markets
 * "Rate Limits") is waited out and asked again, up to `retryAfter.attempts`
 * times and `retryAfter.maxWaitMs` each, and every later request of the
 * vendor waits for it too (the limiter is held until then). Otherwise the
 * cache-through layer above asks again on the next request, and a vendor that
 * is down should not be hammered.
 *
 * @example
 * const http = new VendorHttp({ vendor: 'edgar', ratePerSecond: 10, headers: { 'User-Agent': ua } });
 * const body = await http.json<Submissions>(url, { symbol: 'AAPL' });
 */
import { ProviderError } from './types';

/**
 * Spaces request starts at least `1000 / ratePerSecond` ms apart, in arrival
 * order (SEC EDGAR allows 10 requests/s per client). `now` and `sleep` are
 * injectable so tests can check the schedule without waiting.
 */
export class RateLimiter {
  private next = 0;
  readonly intervalMs: number;

  constructor(
    ratePerSecond: number,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<unknown> = (ms) => Bun.sleep(ms),
  ) {
    if (!(ratePerSecond > 0)) throw new RangeError('rate limiter: ratePerSecond must be > 0');
    this.intervalMs = 1000 / ratePerSecond;
  }

  /** No request starts before `at` (on this limiter's clock): a vendor's `Retry-After`. */
  holdUntil(at: number): void {
    this.next = Math.max(this.next, at);
  }

  /** Resolves when the caller may start its request; returns the start time it was given. */
  async acquire(): Promise<number> {
    const now = this.now();
    const at = Math.max(now, this.next);
    this.next = at + this.intervalMs;
    if (at > now) await this.sleep(at - now);
    return at;
  }
}

export interface VendorHttpOptions {
  /** Provider name used in errors, e.g. `edgar`. */
  vendor: string;
  ratePerSecond: number;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /**
   * Wait out a 429 that says when to come back, then ask again (off unless
   * given); `defaultMs` is the wait when it does not say (a vendor whose
   * documentation says "wait a minute").
   */
  retryAfter?: { attempts: number; maxWaitMs: number; defaultMs?: number };
  /** Clock and sleep of the limiter and the 429 waits (tests). */
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

export interface RequestOptions {
  /** The symbol the request is for, named in errors. */
  symbol?: string | null;
  /** Statuses that mean "no such symbol/document" (default [404]). */
  notFound?: readonly number[];
}

export class VendorHttp {
  private readonly limiter: RateLimiter;

  constructor(private readonly options: VendorHttpOptions) {
    this.limiter = new RateLimiter(options.ratePerSecond, options.now, options.sleep);
  }

  /** The response body as text (a 2xx response), else a `ProviderError`. */
  async text(url: string, request: RequestOptions = {}): Promise<string> {
    const response = await this.fetch(url, request);
    try {
      return await response.text();
    } catch (error) {
      throw this.error('unavailable', request, `reading ${url} failed: ${(error as Error).message}`);
    }
  }

  /** The response body parsed as JSON, else a `ProviderError` (`bad_payload` when it is not JSON). */
  async json<T>(url: string, request: RequestOptions = {}): Promise<T> {
    const body = await this.text(url, request);
    try {
      return JSON.parse(body) as T;
    } catch {
      throw this.error('bad_payload', request, `${url} did not answer JSON (${body.slice(0, 80).replace(/\s+/g, ' ')})`);
    }
  }

  private async fetch(url: string, request: RequestOptions): Promise<Response> {
    const { retryAfter } = this.options;
    for (let attempt = 0; ; attempt++) {
      const response = await this.attempt(url, request);
      if (response.status !== 429) return response;
      const waitMs = retryAfterMs(response.headers, Date.now()) ?? retryAfter?.defaultMs;
      await response.body?.cancel();
      const waitable = retryAfter && waitMs !== undefined && waitMs <= retryAfter.maxWaitMs && attempt < retryAfter.attempts;
      if (!waitable) {
        const when = waitMs === undefined ? '' : `; retry after ${Math.ceil(waitMs / 1000)} s`;
        throw this.error('unavailable', request, `rate limited (HTTP 429 from ${new URL(url).host}${when})`);
      }
      this.limiter.holdUntil((this.options.now ?? (() => performance.now()))() + waitMs);
    }
  }

  /** One request (after the limiter): a 2xx or 429 response, else a `ProviderError`. */
  private async attempt(url: string, request: RequestOptions): Promise<Response> {
    await this.limiter.acquire();
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json, text/plain, */*', ...this.options.headers },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        redirect: 'follow',
      });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message;
      throw this.error('unavailable', request, `request to ${new URL(url).host} failed: ${reason}`);
    }
    if (response.ok || response.status === 429) return response;
    const { status } = response;
    const said = await vendorMessage(response);
    if ((request.notFound ?? [404]).includes(status)) throw this.error('unknown_symbol', request, `not found upstream (HTTP ${status} for ${url})`);
    if (status === 401 || status === 403) throw this.error('missing_credential', request, `refused (HTTP ${status}${said}); check the credentials, plan or User-Agent`);
    throw this.error('unavailable', request, `HTTP ${status} from ${new URL(url).host}${said}`);
  }

  private error(code: ConstructorParameters<typeof ProviderError>[0], request: RequestOptions, detail: string) {
    return new ProviderError(code, this.options.vendor, request.symbol ?? null, detail);
  }
}

/**
 * How long a 429 asks to be left alone, in ms from `now` (epoch ms): its
 * `Retry-After` (delta-seconds or an HTTP date), else an `X-RateLimit-Reset`
 * epoch second; undefined when it says neither.
 * @example
 * retryAfterMs(new Headers({ 'retry-after': '2' }), Date.now()); // => 2000
 */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const reset = headers.get('x-ratelimit-reset')?.trim();
  if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - now);
  return undefined;
}

/**
 * What a refusing vendor said, as `: <message>` (the `message` or `error`
 * field of a JSON body, at most 200 characters), or '' (a body that is not
 * JSON is not repeated: it may be an HTML page).
 */
async function vendorMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown; error?: unknown };
    const said = typeof body?.message === 'string' ? body.message : typeof body?.error === 'string' ? body.error : '';
    return said ? `: ${said.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}
