/**
 * @module providers/http
 * The one HTTP client of the live adapters (Yahoo, SEC EDGAR, FINRA): a
 * request-rate limit per vendor, a timeout, the vendor's required headers, and
 * every failure turned into a `ProviderError` that names the vendor and symbol:
 *
 * | upstream | ProviderError code |
 * |---|---|
 * | 404 (or the caller's `notFound` statuses) | `unknown_symbol` |
 * | 401, 403 | `missing_credential` |
 * | 429, 5xx, timeout, connection error | `unavailable` |
 * | a body that is not the expected JSON/text | `bad_payload` |
 *
 * No retries: the cache-through layer above asks again on the next request,
 * and a vendor that is down should not be hammered.
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
    this.limiter = new RateLimiter(options.ratePerSecond);
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
    if (response.ok) return response;
    await response.body?.cancel();
    const { status } = response;
    if ((request.notFound ?? [404]).includes(status)) throw this.error('unknown_symbol', request, `not found upstream (HTTP ${status} for ${url})`);
    if (status === 401 || status === 403) throw this.error('missing_credential', request, `refused (HTTP ${status}); check the credentials or User-Agent`);
    throw this.error('unavailable', request, `HTTP ${status} from ${new URL(url).host}`);
  }

  private error(code: ConstructorParameters<typeof ProviderError>[0], request: RequestOptions, detail: string) {
    return new ProviderError(code, this.options.vendor, request.symbol ?? null, detail);
  }
}
