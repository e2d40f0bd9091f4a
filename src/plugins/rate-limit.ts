/**
 * @module plugins/rate-limit
 * Per-client fixed-window limiting on `/api/*`. The client is the socket address,
 * or with `TRUST_PROXY` the first `X-Forwarded-For` hop. Every answer carries
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (whole
 * seconds until the window resets); a refusal is 429 `rate_limited` with
 * `Retry-After`. When the store cannot be reached the request is let through
 * (fail open) and the health check reports `kv: down`.
 *
 * Cost classes: a route whose answer is expensive (a replay, a universe scan,
 * the whole ledger) declares `costly` in its options, and each such request
 * also counts against a second, stricter quota of the same window
 * (`RATE_LIMIT_COSTLY_QUOTA`), so one client cannot spend the server's time
 * on it with the ordinary quota. The headers of a costly answer describe the
 * costly quota; the operation says `x-rate-limit-class: costly` in the OpenAPI
 * document.
 *
 * @example
 * new Elysia().use(rateLimit(options)).get('/api/universe/scan', scan, { costly: true });
 * new Elysia().use(rateLimit(options)).get('/api/breakouts', list, { costly: { query: 'asOf' } });
 */
import { Elysia } from 'elysia';
import { AppError } from '../errors';
import type { Logger } from '../log';
import type { RateLimitDecision, RateLimitStore } from '../ratelimit';
import { isApiPath } from './request-path';

export interface RateLimitOptions {
  store: RateLimitStore;
  quota: number;
  /** Requests per window of the costly class (counted on top of `quota`). */
  costlyQuota: number;
  windowSeconds: number;
  trustProxy: boolean;
  log: Logger;
}

/** When a route is costly: always, or when the named query parameter is given. */
export type CostlyWhen = boolean | { query: string };

type SocketInfo = { requestIP?(request: Request): { address: string } | null } | null;
type HeaderSet = { headers: Record<string, unknown> };

export function clientIp(request: Request, server: SocketInfo, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
    const real = request.headers.get('x-real-ip')?.trim();
    if (real) return real;
  }
  return server?.requestIP?.(request)?.address ?? 'local';
}

/** The options from the composition root's config, store and logger. */
export function rateLimitOptions(services: {
  rateLimitStore: RateLimitStore;
  config: { rateLimit: { quota: number; costlyQuota: number; windowSeconds: number }; trustProxy: boolean };
  log: Logger;
}): RateLimitOptions {
  return { store: services.rateLimitStore, ...services.config.rateLimit, trustProxy: services.config.trustProxy, log: services.log };
}

export function rateLimit({ store, quota, costlyQuota, windowSeconds, trustProxy, log }: RateLimitOptions) {
  const windowMs = windowSeconds * 1000;
  const apply = (decision: RateLimitDecision, set: HeaderSet, what: string) => {
    const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    set.headers['x-ratelimit-limit'] = String(decision.limit);
    set.headers['x-ratelimit-remaining'] = String(decision.remaining);
    set.headers['x-ratelimit-reset'] = String(resetSeconds);
    if (!decision.allowed) {
      throw new AppError('rate_limited', `Rate limit of ${decision.limit} ${what} per ${windowSeconds}s exceeded; retry in ${resetSeconds}s`, {
        'retry-after': String(resetSeconds),
      });
    }
  };
  const storeDown = (error: unknown) => log.warn('rate-limit store unavailable; request admitted', { store: store.name, error: String(error) });
  /** Counts one hit of `key`; synchronous with the in-process store, awaited only for a remote one. */
  const count = (key: string, limit: number, set: HeaderSet, what: string): void | Promise<void> => {
    let decision: RateLimitDecision | Promise<RateLimitDecision>;
    try {
      decision = store.hit(key, limit, windowMs);
    } catch (error) {
      storeDown(error);
      return;
    }
    if (decision instanceof Promise) return decision.then((d) => apply(d, set, what), storeDown);
    apply(decision, set, what);
  };

  // Not async functions: with the in-process store the whole check runs
  // synchronously, and only a remote store's answer is awaited.
  return new Elysia({ name: 'breakline/rate-limit' })
    .onRequest(({ request, set, server }) => {
      if (!isApiPath(request.url)) return;
      return count(`ip:${clientIp(request, server as SocketInfo, trustProxy)}`, quota, set, 'requests');
    })
    .macro({
      costly: (when: CostlyWhen) => {
        if (when === false) return;
        const detail: Record<string, string> = { 'x-rate-limit-class': 'costly' };
        if (when !== true) detail['x-rate-limit-class-when-present'] = when.query;
        return {
          detail,
          beforeHandle({ request, set, server, query }) {
            if (when !== true && (query as Record<string, unknown>)[when.query] === undefined) return;
            return count(`costly:ip:${clientIp(request, server as SocketInfo, trustProxy)}`, costlyQuota, set, 'costly requests');
          },
        };
      },
    });
}
