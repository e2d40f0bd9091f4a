/**
 * @module plugins/cost-limit
 * A second, stricter fixed-window quota for routes that cost money (each
 * /api/explain may call a paid language model), counted in its own bucket
 * on the same rate-limit store as the general limit. It runs as a route's
 * `beforeHandle`, so only requests that passed validation are counted.
 *
 * Who pays is `payer(request)`: the client IP today (the same address the
 * general limiter uses). An authenticated principal can pay instead by
 * returning its own key and its tier's quota from `payer` (issue 15).
 *
 * The `X-RateLimit-*` headers describe whichever of the two limits has fewer
 * requests left; a refusal is 429 `rate_limited` with `Retry-After`. When the
 * store cannot be reached the request is admitted and a warning logged (as
 * the general limiter does).
 */
import { AppError } from '../errors';
import type { Logger } from '../log';
import type { RateLimitDecision, RateLimitStore } from '../ratelimit';
import { clientIp } from './rate-limit';

type Server = Parameters<typeof clientIp>[1];

/** Who is charged, and their quota when it differs from the bucket's default (a tier's). */
export interface Payer {
  key: string;
  quota?: number;
}

export interface CostLimitOptions {
  /** The bucket's name, e.g. `explain`; keys are `cost:<bucket>:<payer key>`. */
  bucket: string;
  store: RateLimitStore;
  quota: number;
  windowSeconds: number;
  trustProxy: boolean;
  log: Logger;
  /** Who pays for a request; by default its client IP (`ip:<address>`). */
  payer?: (request: Request, server: Server) => Payer;
}

interface HookContext {
  request: Request;
  set: { headers: Record<string, unknown> };
  server: unknown;
}

/** A `beforeHandle` hook charging one request to the payer's bucket. */
export function costLimit(options: CostLimitOptions): (context: HookContext) => void | Promise<void> {
  const { bucket, store, quota, windowSeconds, trustProxy, log } = options;
  const windowMs = windowSeconds * 1000;
  const payerOf = options.payer ?? ((request: Request, server: Server): Payer => ({ key: `ip:${clientIp(request, server, trustProxy)}` }));
  const apply = (decision: RateLimitDecision, set: HookContext['set']) => {
    const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
    const generalRemaining = Number(set.headers['x-ratelimit-remaining']);
    if (!decision.allowed || !(generalRemaining <= decision.remaining)) {
      set.headers['x-ratelimit-limit'] = String(decision.limit);
      set.headers['x-ratelimit-remaining'] = String(decision.remaining);
      set.headers['x-ratelimit-reset'] = String(resetSeconds);
    }
    if (!decision.allowed) {
      throw new AppError('rate_limited', `The ${bucket} limit of ${decision.limit} requests per ${windowSeconds}s is exceeded (each may call a paid model); retry in ${resetSeconds}s`, {
        'retry-after': String(resetSeconds),
      });
    }
  };
  const storeDown = (error: unknown) => log.warn(`${bucket} limit store unavailable; request admitted`, { store: store.name, error: String(error) });

  return ({ request, set, server }) => {
    const payer = payerOf(request, server as Server);
    let decision: RateLimitDecision | Promise<RateLimitDecision>;
    try {
      decision = store.hit(`cost:${bucket}:${payer.key}`, payer.quota ?? quota, windowMs);
    } catch (error) {
      storeDown(error);
      return;
    }
    if (decision instanceof Promise) return decision.then((d) => apply(d, set), storeDown);
    apply(decision, set);
  };
}
