/**
 * @module plugins/idempotency
 * `Idempotency-Key` on POST routes (the IETF httpapi draft
 * "The Idempotency-Key HTTP Header Field", as Stripe does it): a client that
 * retries a POST with the same key gets the first answer again (same status
 * and body, with `Idempotent-Replayed: true`) and nothing is done twice.
 *
 * - Keys belong to the user (the route's principal), for `IDEMPOTENCY_KEY_TTL_HOURS`.
 * - The same key with another body (SHA-256 of its canonical JSON) or on
 *   another route: 409 `conflict`, nothing done.
 * - The same key while the first request is still running: 409 with
 *   `Retry-After: 1` (exactly one of concurrent twins runs, on any instance:
 *   the claim is one INSERT … ON CONFLICT).
 * - Only a successful answer is kept: when the request fails (4xx or 5xx),
 *   its claim is dropped and the key may be used again.
 * - Without the header the route runs as usual.
 *
 * @example
 * new Elysia()
 *   .use(idempotency(services)) // its idempotency repository, authenticator, TTL and log
 *   .post('/api/watchlists', handler, { auth: 'session', idempotent: true });
 */
import { createHash } from 'node:crypto';
import { Elysia, t } from 'elysia';
import type { Authenticator } from '../auth';
import type { IdempotencyRepository } from '../db/repositories/idempotency';
import { AppError } from '../errors';
import { canonicalJson } from '../ledger/canonical';
import type { Logger } from '../log';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = '^[\\x21-\\x7e]{1,255}$';
const PURGE_EVERY_MS = 3_600_000;

export interface IdempotencyOptions {
  account: { idempotency: IdempotencyRepository };
  auth: { authenticator: Authenticator };
  config: { account: { idempotencyTtlMs: number } };
  log: Logger;
  now?: () => number;
}

export const IdempotencyHeaders = t.Object({
  [IDEMPOTENCY_HEADER]: t.Optional(
    t.String({
      pattern: KEY_PATTERN,
      // No example value: a key is the client's own, new for each request (a copied example would collide with every other copy).
      description: 'Optional: a key of your own, new for each request (a random UUID, say). A retry of this POST with the same key and body answers the first response (Idempotent-Replayed: true) instead of running again; another body → 409. Kept 24 h by default.',
      error: `Header 'Idempotency-Key' must be 1–255 printable ASCII characters without spaces`,
    }),
  ),
});

const bodyHash = (body: unknown) => createHash('sha256').update(canonicalJson(body ?? null)).digest('hex');

export function idempotency(options: IdempotencyOptions) {
  const repository = options.account.idempotency;
  const { authenticator } = options.auth;
  const ttlMs = options.config.account.idempotencyTtlMs;
  const { log } = options;
  const now = options.now ?? Date.now;
  /** Requests holding a claim, until their answer is stored or their claim dropped. */
  const holding = new WeakMap<Request, { userId: string; key: string }>();
  let purgedAt = 0;
  const purgeNow = () => {
    if (now() - purgedAt < PURGE_EVERY_MS) return;
    purgedAt = now();
    repository.purge(new Date(purgedAt)).catch((error) => log.warn('idempotency key purge failed', { error: String(error) }));
  };

  return new Elysia({ name: 'breakline/idempotency' }).macro({
    idempotent: (enabled: boolean) =>
      enabled
        ? {
            headers: IdempotencyHeaders,
            async beforeHandle({ request, body, set }) {
              const key = request.headers.get(IDEMPOTENCY_HEADER);
              const principal = key === null ? null : await authenticator.principalOf(request);
              if (key === null || principal === null) return;
              purgeNow();
              const at = now();
              const route = `${request.method} ${new URL(request.url).pathname}`;
              const claim = await repository.claim({ userId: principal.userId, key, route, bodyHash: bodyHash(body), createdAt: new Date(at), expiresAt: new Date(at + ttlMs) });
              if (claim.state === 'claimed') {
                holding.set(request, { userId: principal.userId, key });
                return;
              }
              if (claim.state === 'mismatch') {
                throw new AppError('conflict', `Idempotency-Key '${key}' was first used for ${claim.route === route ? 'this route with another body' : claim.route}; send a new key for a new request`);
              }
              if (claim.state === 'in_progress') throw new AppError('conflict', `A request with Idempotency-Key '${key}' is still running; retry shortly`, { 'retry-after': '1' });
              set.status = claim.status;
              set.headers['idempotent-replayed'] = 'true';
              return JSON.parse(claim.body) as unknown;
            },
            async afterHandle({ request, response, set }) {
              const held = holding.get(request);
              if (!held) return;
              holding.delete(request);
              const status = typeof set.status === 'number' ? set.status : 200;
              await repository.complete(held.userId, held.key, status, JSON.stringify(response ?? null));
            },
            async afterResponse({ request }) {
              const held = holding.get(request);
              if (!held) return;
              // The request failed before an answer was stored: the key is free again.
              holding.delete(request);
              await repository.release(held.userId, held.key).catch((error) => log.warn('idempotency claim release failed', { error: String(error) }));
            },
          }
        : {},
  });
}
