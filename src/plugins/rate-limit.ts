/**
 * @module plugins/rate-limit
 * Per-client fixed-window limiting on `/api/*`. The client is the socket address,
 * or with `TRUST_PROXY` the first `X-Forwarded-For` hop. Every answer carries
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (whole
 * seconds until the window resets); a refusal is 429 `rate_limited` with
 * `Retry-After`. When the store cannot be reached the request is let through
 * (fail open) and the health check reports `kv: down`. `/api/health` is a
 * probe: it reports the client's standing in the same headers but is never
 * counted, so it never answers 429 (the other probes live outside `/api`).
 */
import { Elysia } from 'elysia';
import { AppError } from '../errors';
import type { Logger } from '../log';
import type { RateLimitDecision, RateLimitStore } from '../ratelimit';

export interface RateLimitOptions {
  store: RateLimitStore;
  quota: number;
  windowSeconds: number;
  trustProxy: boolean;
  log: Logger;
}

type SocketInfo = { requestIP?(request: Request): { address: string } | null } | null;

export function clientIp(request: Request, server: SocketInfo, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
    const real = request.headers.get('x-real-ip')?.trim();
    if (real) return real;
  }
  return server?.requestIP?.(request)?.address ?? 'local';
}

export function rateLimit({ store, quota, windowSeconds, trustProxy, log }: RateLimitOptions) {
  const windowMs = windowSeconds * 1000;
  const apply = (decision: RateLimitDecision, set: { headers: Record<string, unknown> }, counted: boolean) => {
    const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    set.headers['x-ratelimit-limit'] = String(decision.limit);
    set.headers['x-ratelimit-remaining'] = String(decision.remaining);
    set.headers['x-ratelimit-reset'] = String(resetSeconds);
    if (counted && !decision.allowed) {
      throw new AppError('rate_limited', `Rate limit of ${quota} requests per ${windowSeconds}s exceeded; retry in ${resetSeconds}s`, {
        'retry-after': String(resetSeconds),
      });
    }
  };
  const storeDown = (error: unknown) => log.warn('rate-limit store unavailable; request admitted', { store: store.name, error: String(error) });

  // Not an async function: with the in-process store the whole check runs
  // synchronously, and only a remote store's answer is awaited.
  return new Elysia({ name: 'breakline/rate-limit' }).onRequest(({ request, set, server }) => {
    if (!isApiPath(request.url)) return;
    const key = `ip:${clientIp(request, server as SocketInfo, trustProxy)}`;
    const counted = !isUncounted(request.url);
    let decision: RateLimitDecision | Promise<RateLimitDecision>;
    try {
      decision = counted ? store.hit(key, quota, windowMs) : store.peek(key, quota, windowMs);
    } catch (error) {
      storeDown(error);
      return;
    }
    if (decision instanceof Promise) return decision.then((d) => apply(d, set, counted), storeDown);
    apply(decision, set, counted);
  });
}

/** Probes under `/api` that report the rate-limit headers without being counted. */
const UNCOUNTED = ['/api/health'];

/** Whether a request URL's path is one of `UNCOUNTED` (query string aside). */
function isUncounted(url: string): boolean {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return UNCOUNTED.some((path) => url.startsWith(path, pathStart) && (url.length === pathStart + path.length || url[pathStart + path.length] === '?'));
}

/** Whether a request URL's path starts with `/api/` (without building a URL object). */
export function isApiPath(url: string): boolean {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart >= 0 && url.startsWith('/api/', pathStart);
}
