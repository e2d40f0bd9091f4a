/**
 * @module plugins/rate-limit
 * Fixed-window limiting on `/api/*`, before routing, so every request counts
 * (unknown routes and invalid input too).
 *
 * Who is counted: a request with a valid credential counts against its user
 * at the user's tier's quota, whether it came by session or by any of the
 * user's API keys (a user's keys share the user's quota; issue 28); an API key
 * acting below its user's tier is also held to its own tier's quota, in a
 * bucket of its own (a key may have a lower quota, never a higher one). Any
 * other request counts against its client IP at the public quota. The client IP is the socket
 * address, or behind the proxies `TRUST_PROXY` names the right-most
 * `X-Forwarded-For` entry that is not one of them (plugins/client-address). The
 * principal comes from `principalOf` (the auth layer resolves it once per
 * request; the route's own auth check reuses it). The path is read by
 * plugins/request-path, so a host-less HTTP/1.0 request is counted too.
 *
 * `exempt` paths (probes such as `/api/health`) report the caller's standing
 * in the headers but are never counted, so they never answer 429.
 *
 * Quota classes: a route whose answer is expensive declares its class in the
 * `costly` option, and each such request that passed validation also counts
 * against that class's stricter quota, in the same principal's bucket of the
 * class, so one client cannot spend the server's time (or money) with the
 * ordinary quota. Two classes: `costly` (a replay, a universe scan, the whole
 * ledger: `RATE_LIMIT_COSTLY_QUOTA` per window) and `explain` (each may call a
 * paid language model: `EXPLAIN_RATE_LIMIT_QUOTA*`, per tier when
 * authenticated, in its own window). The headers of such an answer describe the
 * class's quota; the operation says `x-rate-limit-class: <class>` in the
 * OpenAPI document.
 *
 * Every answer carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
 * `X-RateLimit-Reset` (whole seconds until the window resets); a refusal is
 * 429 `rate_limited` with `Retry-After`. When the store throws (it should not:
 * services.ts backs Redis with an in-process store) the request is admitted.
 *
 * @example
 * new Elysia().use(rateLimit(options)).get('/api/universe/scan', scan, { costly: true });
 * new Elysia().use(rateLimit(options)).get('/api/breakouts', list, { costly: { query: 'asOf' } });
 * new Elysia().use(rateLimit(options)).get('/api/explain', explain, { costly: { class: 'explain' } });
 */
import { Elysia } from 'elysia';
import type { Principal } from '../auth';
import type { ProxyTrust } from '../config';
import type { Tier } from '../domain/tiers';
import { AppError } from '../errors';
import type { Logger } from '../log';
import type { RateLimitDecision, RateLimitStore } from '../ratelimit';
import { clientAddressOf } from './client-address';
import { requestPath } from './request-path';
import type { HeaderSet, RequestStep, SocketInfo } from './step';

/** A stricter quota, counted on top of the ordinary one, for the routes that declare the class. */
export interface QuotaClass {
  /** Requests per window for a client without a valid credential, per IP. */
  quota: number;
  /** Requests per window for an authenticated user or key, by tier. */
  tierQuotas: Readonly<Record<Tier, number>>;
  windowSeconds: number;
}

export const QUOTA_CLASSES = ['costly', 'explain'] as const;
export type QuotaClassName = (typeof QUOTA_CLASSES)[number];

export interface RateLimitOptions {
  store: RateLimitStore;
  /** Requests per window for a client without a valid credential, per IP. */
  quota: number;
  windowSeconds: number;
  /** The quota classes routes may declare. */
  classes: Readonly<Record<QuotaClassName, QuotaClass>>;
  /** Requests per window for an authenticated user or key, by tier. */
  tierQuotas: Readonly<Record<Tier, number>>;
  /** The proxies trusted to name the client (null: none). */
  trustProxy: ProxyTrust | null;
  log: Logger;
  /** The request's principal when it carries a valid credential. */
  principalOf?: (request: Request) => Principal | null | Promise<Principal | null>;
  /** Paths never counted: they report the caller's standing in the headers (probes). */
  exempt?: readonly string[];
  /** Told of every refusal (the metrics count them by quota class). */
  onRefused?: (quotaClass: 'general' | QuotaClassName) => void;
}

/** When a route counts in a quota class (`costly` unless named): always, when the named query parameter is given, or when it `equals` a value. */
export type CostlyWhen = boolean | { query?: string; equals?: string; class?: QuotaClassName };

/** The OpenAPI extensions a route's `costly` option publishes (the route table's record of it, which GraphQL reads). */
const CLASS_KEY = 'x-rate-limit-class';
const WHEN_KEY = 'x-rate-limit-class-when-present';
const EQUALS_KEY = 'x-rate-limit-class-when-equals';

/** A route's `costly` option as its detail publishes it. */
export function classDetail(when: CostlyWhen): Record<string, string> {
  if (when === false) return {};
  const detail: Record<string, string> = { [CLASS_KEY]: when === true ? 'costly' : (when.class ?? 'costly') };
  if (when !== true && when.query !== undefined) detail[WHEN_KEY] = when.query;
  if (when !== true && when.equals !== undefined) detail[EQUALS_KEY] = when.equals;
  return detail;
}

/** A route's `costly` option read back from its detail (`classDetail`'s inverse): how GraphQL learns the class of a field's REST route. */
export function classFromDetail(detail: Readonly<Record<string, unknown>> | undefined): CostlyWhen {
  const name = QUOTA_CLASSES.find((c) => c === detail?.[CLASS_KEY]);
  if (!name) return false;
  const [query, equals] = [detail?.[WHEN_KEY], detail?.[EQUALS_KEY]];
  return { class: name, ...(typeof query === 'string' ? { query } : {}), ...(typeof equals === 'string' ? { equals } : {}) };
}

/** The quota class a request counts in under `when`, given its query parameters (a GraphQL field: its arguments), or undefined. */
export function quotaClassOf(when: CostlyWhen, args: Readonly<Record<string, unknown>>): QuotaClassName | undefined {
  if (when === false) return undefined;
  if (when === true) return 'costly';
  if (when.query !== undefined) {
    const value = args[when.query];
    if (value === undefined || value === null || (when.equals !== undefined && String(value) !== when.equals)) return undefined;
  }
  return when.class ?? 'costly';
}

/** The bucket of an authenticated principal: its user's, whether it came by session or by one of the user's API keys. */
export const principalBucket = (principal: Principal): string => `user:${principal.userId}`;

/** A bucket's key in a quota class: the class's name before it (the ordinary quota's buckets bear none). */
const named = (quotaClass: 'general' | QuotaClassName, bucket: string): string => (quotaClass === 'general' ? bucket : `${quotaClass}:${bucket}`);

/** The bucket of an anonymous client: its address. */
export const addressBucket = (ip: string): string => `ip:${ip}`;

/** The quota of a bucket: its user's tier's (an API key's owner's), or the anonymous one. */
export const bucketQuota = (principal: Principal | null, quota: number, tierQuotas: Readonly<Record<Tier, number>>): number => (principal ? tierQuotas[principal.userTier ?? principal.tier] : quota);

/** An API key acting below its user's tier has a quota of its own too (its tier's, lower), beside the user's it shares: its bucket and tier. */
export const keyBucket = (principal: Principal): { key: string; tier: Tier } | undefined =>
  principal.kind === 'key' && principal.userTier !== undefined && principal.userTier !== principal.tier ? { key: `key:${principal.keyId}`, tier: principal.tier } : undefined;

/**
 * The decimal text of the numbers last written to one header: a value the
 * header had on the request before (the limit, the seconds to the reset, a
 * polling client's next count) is not formatted again.
 */
class NumberText {
  private value = Number.NaN;
  private text = '';

  of(value: number): string {
    if (value !== this.value) {
      this.value = value;
      this.text = String(value);
    }
    return this.text;
  }
}

/** The options from the composition root: config, store, logger and the authenticator that names the principal. */
export function rateLimitOptions(services: {
  rateLimitStore: RateLimitStore;
  config: {
    rateLimit: { quota: number; costlyQuota: number; windowSeconds: number; tierQuotas: Readonly<Record<Tier, number>> };
    explain: { quota: number; tierQuotas: Readonly<Record<Tier, number>>; windowSeconds: number };
    trustProxy: ProxyTrust | null;
  };
  log: Logger;
  metrics?: { rateLimited(quotaClass: 'general' | QuotaClassName): void };
  auth: { authenticator: { principalOf(request: Request): Principal | null | Promise<Principal | null> } };
}): RateLimitOptions {
  const { quota, costlyQuota, windowSeconds, tierQuotas } = services.config.rateLimit;
  const { explain } = services.config;
  return {
    store: services.rateLimitStore,
    quota,
    windowSeconds,
    tierQuotas,
    classes: {
      // A replay or a full ledger costs the same whoever asks: one quota for every tier.
      costly: { quota: costlyQuota, tierQuotas: { free: costlyQuota, pro: costlyQuota, enterprise: costlyQuota }, windowSeconds },
      explain: { quota: explain.quota, tierQuotas: explain.tierQuotas, windowSeconds: explain.windowSeconds },
    },
    trustProxy: services.config.trustProxy,
    log: services.log,
    principalOf: (request) => services.auth.authenticator.principalOf(request),
    // Probes: they report the caller's standing but never spend it (/livez, /readyz and /metrics live outside /api).
    exempt: ['/api/health'],
    onRefused: services.metrics ? (quotaClass) => services.metrics?.rateLimited(quotaClass) : undefined,
  };
}

/**
 * The ordinary accounting of one request, as the plugin does it before
 * routing (plugins/fast-path calls it too): counts it (or, for an exempt path,
 * reads its standing), sets the three headers, throws the 429's AppError on a
 * refusal. Synchronous for an anonymous client and the in-process store.
 */
export type GeneralAccounting = (request: Request, server: SocketInfo, set: HeaderSet, path: string) => void | Promise<void>;

/** The step (plugins/step): a request to `/api/*` counted in the ordinary quota by `general` (its headers set, a 429 thrown). */
export function rateLimitStep(general: GeneralAccounting): RequestStep {
  // The path of the last URL, kept: a polling client sends the same URL again (no path cut per request).
  let lastUrl = '';
  let lastPath = '/';
  return (request, server, set) => {
    const url = request.url;
    if (url !== lastUrl) {
      lastPath = requestPath(url);
      lastUrl = url;
    }
    if (lastPath.startsWith('/api/')) return general(request, server, set, lastPath);
  };
}

/** The step and the plugin that registers it; the plugin also gives routes the `costly` option (a quota class). */
export function rateLimitStage(options: RateLimitOptions) {
  const { general, classed } = rateLimiter(options);
  const step = rateLimitStep(general);
  // Not async functions: for an anonymous client and the in-process store the
  // whole check runs synchronously; only a credential check or a remote
  // store's answer is awaited.
  const plugin = new Elysia({ name: 'breakline/rate-limit' })
    .onRequest(({ request, server, set }) => step(request, server as SocketInfo, set))
    .macro({
      costly: (when: CostlyWhen) => {
        if (when === false) return;
        return {
          detail: classDetail(when),
          beforeHandle({ request, set, server, query }) {
            const name = quotaClassOf(when, query as Record<string, unknown>);
            if (name) return classed(name, request, server as SocketInfo, set);
          },
        };
      },
    });
  return { step, plugin };
}

export function rateLimit(options: RateLimitOptions) {
  return rateLimitStage(options).plugin;
}

/** Counts `units` more against the ordinary quota or a class's, in the request's bucket (a GraphQL operation's fields: graphql/costs). */
export type Charge = (quotaClass: 'general' | QuotaClassName, units: number, request: Request, server: SocketInfo, set: HeaderSet) => void | Promise<void>;

/** The accounting itself: the ordinary quota (`general`), the quota classes (`classed`), and `charge` for several units at once. */
export function rateLimiter(options: RateLimitOptions): {
  general: GeneralAccounting;
  classed: (name: QuotaClassName, request: Request, server: SocketInfo, set: HeaderSet) => void | Promise<void>;
  charge: Charge;
} {
  const { store, quota, windowSeconds, tierQuotas, classes, trustProxy, log, principalOf, onRefused } = options;
  const exempt = new Set(options.exempt ?? []);
  const clientAddress = clientAddressOf(trustProxy);
  const [limitText, remainingText, resetText] = [new NumberText(), new NumberText(), new NumberText()];
  // The key of the last anonymous client's bucket, kept while the next request comes from the same address.
  let anonymous = { ip: '', key: addressBucket('') };

  const apply = (decision: RateLimitDecision, set: HeaderSet, counted: boolean, quotaClass: 'general' | QuotaClassName, window: number) => {
    const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    set.headers['x-ratelimit-limit'] = limitText.of(decision.limit);
    set.headers['x-ratelimit-remaining'] = remainingText.of(decision.remaining);
    set.headers['x-ratelimit-reset'] = resetText.of(resetSeconds);
    if (counted && !decision.allowed) {
      onRefused?.(quotaClass);
      const what = quotaClass === 'general' ? 'requests' : `${quotaClass} requests`;
      throw new AppError('rate_limited', `Rate limit of ${decision.limit} ${what} per ${window}s exceeded; retry in ${resetSeconds}s`, {
        'retry-after': String(resetSeconds),
      });
    }
  };
  const storeDown = (error: unknown) => log.warn('rate-limit store failed; request admitted', { store: store.name, error: String(error) });

  /** The store's decision for `units` hits of `key` (or, not `counted`, its standing), or undefined when the store failed (admitted). */
  const decide = (key: string, limit: number, counted: boolean, window: number, units: number): RateLimitDecision | Promise<RateLimitDecision | undefined> | undefined => {
    try {
      const decision = counted ? store.hit(key, limit, window * 1000, units === 1 ? undefined : { cost: units }) : store.peek(key, limit, window * 1000);
      return decision instanceof Promise ? decision.catch((error: unknown) => void storeDown(error)) : decision;
    } catch (error) {
      storeDown(error);
      return undefined;
    }
  };

  /** Counts `units` hits of `key` (or, not `counted`, only reads its standing); synchronous with the in-process store. */
  const count = (key: string, limit: number, set: HeaderSet, counted: boolean, quotaClass: 'general' | QuotaClassName, window: number, units = 1): void | Promise<void> => {
    const decision = decide(key, limit, counted, window, units);
    if (decision instanceof Promise) return decision.then((d) => d && apply(d, set, counted, quotaClass, window));
    if (decision) apply(decision, set, counted, quotaClass, window);
  };

  /** Counts both buckets; the answer (headers, refusal) is the stricter one's: a refusal first, else the fewer remaining. */
  const countBoth = (buckets: [string, number][], set: HeaderSet, counted: boolean, quotaClass: 'general' | QuotaClassName, window: number, units: number): void | Promise<void> => {
    const decisions = buckets.map(([key, limit]) => decide(key, limit, counted, window, units));
    const stricter = (all: (RateLimitDecision | undefined)[]) => {
      const known = all.filter((d): d is RateLimitDecision => d !== undefined);
      const chosen = known.find((d) => !d.allowed) ?? known.sort((a, b) => a.remaining - b.remaining)[0];
      if (chosen) apply(chosen, set, counted, quotaClass, window);
    };
    if (decisions.some((d) => d instanceof Promise)) return Promise.all(decisions).then(stricter);
    stricter(decisions as (RateLimitDecision | undefined)[]);
  };

  /**
   * Counts the request in its principal's bucket (`principalBucket`: the
   * user's, API keys included; `addressBucket` for an anonymous client; a
   * quota class's buckets carry its name before), and an API key below its
   * user's tier in its own too (`keyBucket`), synchronously with the
   * in-process store.
   */
  const countFor = (
    principal: Principal | null,
    request: Request,
    server: SocketInfo,
    set: HeaderSet,
    counted: boolean,
    quotaClass: 'general' | QuotaClassName,
    quotas: { quota: number; tierQuotas: Readonly<Record<Tier, number>> },
    window: number,
    units = 1,
  ): void | Promise<void> => {
    let key: string;
    if (principal) key = principalBucket(principal);
    else {
      const ip = clientAddress(request, server);
      if (ip !== anonymous.ip) anonymous = { ip, key: addressBucket(ip) };
      key = anonymous.key;
    }
    const limit = bucketQuota(principal, quotas.quota, quotas.tierQuotas);
    const own = principal && keyBucket(principal);
    if (own) return countBoth([[named(quotaClass, key), limit], [named(quotaClass, own.key), quotas.tierQuotas[own.tier]]], set, counted, quotaClass, window, units);
    return count(named(quotaClass, key), limit, set, counted, quotaClass, window, units);
  };
  const ordinary = { quota, tierQuotas };

  return {
    general(request, server, set, path) {
      const counted = exempt.size === 0 || !exempt.has(path);
      const principal = principalOf ? principalOf(request) : null;
      if (principal instanceof Promise) return principal.then((p) => countFor(p, request, server, set, counted, 'general', ordinary, windowSeconds));
      return countFor(principal, request, server, set, counted, 'general', ordinary, windowSeconds);
    },
    classed(name, request, server, set) {
      const quotaClass = classes[name];
      const principal = principalOf ? principalOf(request) : null;
      if (principal instanceof Promise) return principal.then((p) => countFor(p, request, server, set, true, name, quotaClass, quotaClass.windowSeconds));
      return countFor(principal, request, server, set, true, name, quotaClass, quotaClass.windowSeconds);
    },
    charge(name, units, request, server, set) {
      if (units <= 0) return;
      const quotas = name === 'general' ? ordinary : classes[name];
      const window = name === 'general' ? windowSeconds : classes[name].windowSeconds;
      const principal = principalOf ? principalOf(request) : null;
      if (principal instanceof Promise) return principal.then((p) => countFor(p, request, server, set, true, name, quotas, window, units));
      return countFor(principal, request, server, set, true, name, quotas, window, units);
    },
  };
}
