/**
 * @module plugins/rate-limit
 * Fixed-window limiting on `/api/*`, before routing, so every request counts
 * (unknown routes and invalid input too).
 *
 * Who is counted: a request with a valid credential counts against its user
 * (session) or its key (API key) at its tier's quota; any other request
 * against its client IP at the public quota. The client IP is the socket
 * address, or with `TRUST_PROXY` the first `X-Forwarded-For` hop. The
 * principal comes from `principalOf` (the auth layer resolves it once per
 * request; the route's own auth check reuses it).
 *
 * Route rules, by exact path: `exempt` paths (probes such as `/api/health`)
 * report the caller's standing in the headers but are never counted, so they
 * never answer 429; `costs` gives expensive paths a cost class, the units one
 * request counts for (default 1), so a quota of 120 allows 24 requests of cost 5.
 *
 * Every answer carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (whole seconds until the window resets); a refusal is
 * 429 `rate_limited` with `Retry-After`. When the store throws (it should not:
 * services.ts backs Redis with an in-process store) the request is admitted.
 */
import { Elysia } from 'elysia';
import type { Principal } from '../auth';
import type { Tier } from '../domain/tiers';
import { AppError } from '../errors';
import type { Logger } from '../log';
import type { RateLimitDecision, RateLimitStore } from '../ratelimit';

export interface RateLimitOptions {
  store: RateLimitStore;
  /** Requests per window for a client without a valid credential, per IP. */
  quota: number;
  windowSeconds: number;
  /** Requests per window for an authenticated user or key, by tier. */
  tierQuotas: Readonly<Record<Tier, number>>;
  trustProxy: boolean;
  log: Logger;
  /** The request's principal when it carries a valid credential. */
  principalOf?: (request: Request) => Principal | null | Promise<Principal | null>;
  /** Paths never counted: they report the caller's standing in the headers (probes). */
  exempt?: readonly string[];
  /** Paths whose requests count for more than one unit. */
  costs?: Readonly<Record<string, number>>;
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

/** The bucket a request is counted in and its quota. */
export function bucketOf(principal: Principal | null, ip: () => string, quota: number, tierQuotas: Readonly<Record<Tier, number>>): { key: string; quota: number } {
  if (!principal) return { key: `ip:${ip()}`, quota };
  const key = principal.kind === 'key' ? `key:${principal.keyId}` : `user:${principal.userId}`;
  return { key, quota: tierQuotas[principal.tier] };
}

export function rateLimit(options: RateLimitOptions) {
  const { store, quota, windowSeconds, tierQuotas, trustProxy, log, principalOf } = options;
  const windowMs = windowSeconds * 1000;
  const exempt = new Set(options.exempt ?? []);
  const costs = new Map(Object.entries(options.costs ?? {}));
  const routeRules = exempt.size > 0 || costs.size > 0;

  const apply = (decision: RateLimitDecision, set: { headers: Record<string, unknown> }, counted: boolean) => {
    const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    set.headers['x-ratelimit-limit'] = String(decision.limit);
    set.headers['x-ratelimit-remaining'] = String(decision.remaining);
    set.headers['x-ratelimit-reset'] = String(resetSeconds);
    if (counted && !decision.allowed) {
      throw new AppError('rate_limited', `Rate limit of ${decision.limit} requests per ${windowSeconds}s exceeded; retry in ${resetSeconds}s`, {
        'retry-after': String(resetSeconds),
      });
    }
  };
  const storeDown = (error: unknown) => log.warn('rate-limit store failed; request admitted', { store: store.name, error: String(error) });

  /** Counts the request in its bucket (`cost` units), or with `cost` 0 only reads the bucket's standing. */
  const count = (principal: Principal | null, request: Request, server: SocketInfo, cost: number, set: { headers: Record<string, unknown> }) => {
    const bucket = bucketOf(principal, () => clientIp(request, server, trustProxy), quota, tierQuotas);
    const counted = cost > 0;
    let decision: RateLimitDecision | Promise<RateLimitDecision>;
    try {
      decision = counted ? store.hit(bucket.key, bucket.quota, windowMs, cost === 1 ? undefined : { cost }) : store.peek(bucket.key, bucket.quota, windowMs);
    } catch (error) {
      storeDown(error);
      return;
    }
    if (decision instanceof Promise) return decision.then((d) => apply(d, set, counted), storeDown);
    apply(decision, set, counted);
  };

  // Not an async function: for an anonymous client and the in-process store
  // the whole check runs synchronously; only a credential check or a remote
  // store's answer is awaited.
  return new Elysia({ name: 'breakline/rate-limit' }).onRequest(({ request, set, server }) => {
    if (!isApiPath(request.url)) return;
    let cost = 1;
    if (routeRules) {
      const path = pathOf(request.url);
      cost = exempt.has(path) ? 0 : (costs.get(path) ?? 1);
    }
    const principal = principalOf ? principalOf(request) : null;
    if (principal instanceof Promise) return principal.then((p) => count(p, request, server as SocketInfo, cost, set));
    return count(principal, request, server as SocketInfo, cost, set);
  });
}

/** Whether a request URL's path starts with `/api/` (without building a URL object). */
export function isApiPath(url: string): boolean {
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  return pathStart >= 0 && url.startsWith('/api/', pathStart);
}

/** The path of a request URL, without its query (Bun gives an HTTP/1.0 request without Host a bare path as its url). */
export function pathOf(url: string): string {
  const pathStart = url.startsWith('/') ? 0 : url.indexOf('/', url.indexOf('//') + 2);
  if (pathStart < 0) return '/';
  const queryStart = url.indexOf('?', pathStart);
  return url.slice(pathStart, queryStart < 0 ? undefined : queryStart);
}
