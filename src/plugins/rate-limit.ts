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
 * request; the route's own auth check reuses it). The path is read by
 * plugins/request-path, so a host-less HTTP/1.0 request is counted too.
 *
 * `exempt` paths (probes such as `/api/health`) report the caller's standing
 * in the headers but are never counted, so they never answer 429.
 *
 * Cost class: a route whose answer is expensive (a replay, a universe scan,
 * the whole ledger) declares `costly` in its options, and each such request
 * also counts against a second, stricter quota of the same window
 * (`RATE_LIMIT_COSTLY_QUOTA`) in the same principal's costly bucket, so one
 * client cannot spend the server's time on it with the ordinary quota. The
 * headers of a costly answer describe the costly quota; the operation says
 * `x-rate-limit-class: costly` in the OpenAPI document.
 *
 * Every answer carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (whole seconds until the window resets); a refusal is
 * 429 `rate_limited` with `Retry-After`. When the store throws (it should not:
 * services.ts backs Redis with an in-process store) the request is admitted.
 *
 * @example
 * new Elysia().use(rateLimit(options)).get('/api/universe/scan', scan, { costly: true });
 * new Elysia().use(rateLimit(options)).get('/api/breakouts', list, { costly: { query: 'asOf' } });
 */
import { Elysia } from 'elysia';
import type { Principal } from '../auth';
import type { Tier } from '../domain/tiers';
import { AppError } from '../errors';
import type { Logger } from '../log';
import type { RateLimitDecision, RateLimitStore } from '../ratelimit';
import { isApiPath, requestPath } from './request-path';

export interface RateLimitOptions {
  store: RateLimitStore;
  /** Requests per window for a client without a valid credential, per IP. */
  quota: number;
  /** Requests per window of the costly class (counted on top of the ordinary quota). */
  costlyQuota: number;
  windowSeconds: number;
  /** Requests per window for an authenticated user or key, by tier. */
  tierQuotas: Readonly<Record<Tier, number>>;
  trustProxy: boolean;
  log: Logger;
  /** The request's principal when it carries a valid credential. */
  principalOf?: (request: Request) => Principal | null | Promise<Principal | null>;
  /** Paths never counted: they report the caller's standing in the headers (probes). */
  exempt?: readonly string[];
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

/** The bucket a request is counted in and its quota. */
export function bucketOf(principal: Principal | null, ip: () => string, quota: number, tierQuotas: Readonly<Record<Tier, number>>): { key: string; quota: number } {
  if (!principal) return { key: `ip:${ip()}`, quota };
  const key = principal.kind === 'key' ? `key:${principal.keyId}` : `user:${principal.userId}`;
  return { key, quota: tierQuotas[principal.tier] };
}

/** The options from the composition root: config, store, logger and the authenticator that names the principal. */
export function rateLimitOptions(services: {
  rateLimitStore: RateLimitStore;
  config: { rateLimit: { quota: number; costlyQuota: number; windowSeconds: number; tierQuotas: Readonly<Record<Tier, number>> }; trustProxy: boolean };
  log: Logger;
  auth: { authenticator: { principalOf(request: Request): Principal | null | Promise<Principal | null> } };
}): RateLimitOptions {
  return {
    store: services.rateLimitStore,
    ...services.config.rateLimit,
    trustProxy: services.config.trustProxy,
    log: services.log,
    principalOf: (request) => services.auth.authenticator.principalOf(request),
    // Probes: they report the caller's standing but never spend it (/livez and /readyz live outside /api).
    exempt: ['/api/health'],
  };
}

export function rateLimit(options: RateLimitOptions) {
  const { store, quota, costlyQuota, windowSeconds, tierQuotas, trustProxy, log, principalOf } = options;
  const windowMs = windowSeconds * 1000;
  const exempt = new Set(options.exempt ?? []);

  const apply = (decision: RateLimitDecision, set: HeaderSet, counted: boolean, what: string) => {
    const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    set.headers['x-ratelimit-limit'] = String(decision.limit);
    set.headers['x-ratelimit-remaining'] = String(decision.remaining);
    set.headers['x-ratelimit-reset'] = String(resetSeconds);
    if (counted && !decision.allowed) {
      throw new AppError('rate_limited', `Rate limit of ${decision.limit} ${what} per ${windowSeconds}s exceeded; retry in ${resetSeconds}s`, {
        'retry-after': String(resetSeconds),
      });
    }
  };
  const storeDown = (error: unknown) => log.warn('rate-limit store failed; request admitted', { store: store.name, error: String(error) });

  /** Counts one hit of `key` (or, not `counted`, only reads its standing); synchronous with the in-process store. */
  const count = (key: string, limit: number, set: HeaderSet, counted: boolean, what: string): void | Promise<void> => {
    let decision: RateLimitDecision | Promise<RateLimitDecision>;
    try {
      decision = counted ? store.hit(key, limit, windowMs) : store.peek(key, limit, windowMs);
    } catch (error) {
      storeDown(error);
      return;
    }
    if (decision instanceof Promise) return decision.then((d) => apply(d, set, counted, what), storeDown);
    apply(decision, set, counted, what);
  };

  /** Resolves the request's bucket (awaiting the principal only when the authenticator must). */
  const withBucket = (request: Request, server: SocketInfo, then: (bucket: { key: string; quota: number }) => void | Promise<void>): void | Promise<void> => {
    const ip = () => clientIp(request, server, trustProxy);
    const principal = principalOf ? principalOf(request) : null;
    if (principal instanceof Promise) return principal.then((p) => then(bucketOf(p, ip, quota, tierQuotas)));
    return then(bucketOf(principal, ip, quota, tierQuotas));
  };

  // Not async functions: for an anonymous client and the in-process store the
  // whole check runs synchronously; only a credential check or a remote
  // store's answer is awaited.
  return new Elysia({ name: 'breakline/rate-limit' })
    .onRequest(({ request, set, server }) => {
      if (!isApiPath(request.url)) return;
      const counted = exempt.size === 0 || !exempt.has(requestPath(request.url));
      return withBucket(request, server as SocketInfo, (bucket) => count(bucket.key, bucket.quota, set, counted, 'requests'));
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
            return withBucket(request, server as SocketInfo, (bucket) => count(`costly:${bucket.key}`, costlyQuota, set, true, 'costly requests'));
          },
        };
      },
    });
}
