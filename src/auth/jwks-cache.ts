/**
 * @module auth/jwks-cache
 * An identity provider's JWKS from its URL, held in memory so that verifying a
 * token never waits on the network, except once when a token names a key we
 * have not seen (the provider rotated its keys). Rules:
 * - fetched at boot (`refresh()`), then in the background every `refreshMs`
 *   (10 min by default, jose's `cacheMaxAge` default), so removed keys drop out;
 * - an unknown `kid` triggers one fetch, and at most one fetch per
 *   `cooldownMs` (30 s) whatever its outcome, so a spray of made-up `kid`s or
 *   a provider outage cannot turn into a fetch per request;
 * - concurrent fetches are one fetch; a failed fetch keeps the last good set.
 * Key selection within the set is jose's `createLocalJWKSet` (by `kid`, `alg`,
 * `kty` and `use`). jose's own `createRemoteJWKSet` refetches on every request
 * while it holds no set and whenever its set is older than `cacheMaxAge`,
 * which is why the fetching schedule is ours.
 */
import { createLocalJWKSet, errors, type FlattenedJWSInput, type JSONWebKeySet, type JWSHeaderParameters, type JWTVerifyGetKey } from 'jose';

export interface JwksCacheOptions {
  /** Least time between two fetches triggered by unknown keys. */
  cooldownMs?: number;
  /** Background refresh interval; 0 → none (tests drive `refresh()`). */
  refreshMs?: number;
  /** Time limit of one fetch. */
  timeoutMs?: number;
  now?: () => number;
  /** Told when a fetch fails (the last good set stays in use). */
  onFetchError?: (error: Error) => void;
}

export class JwksCache {
  private keys: ReturnType<typeof createLocalJWKSet> | undefined;
  private inFlight: Promise<void> | undefined;
  private lastAttempt = -Infinity;
  private readonly timer: ReturnType<typeof setInterval> | undefined;
  private readonly cooldownMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  /** Fetches made so far (the health of the schedule is visible in tests and logs). */
  fetches = 0;

  constructor(
    readonly url: URL,
    private readonly options: JwksCacheOptions = {},
  ) {
    this.cooldownMs = options.cooldownMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.now = options.now ?? Date.now;
    const refreshMs = options.refreshMs ?? 600_000;
    if (refreshMs > 0) {
      this.timer = setInterval(() => void this.refresh().catch(() => {}), refreshMs);
      this.timer.unref?.();
    }
  }

  /** The key resolver for jose's `jwtVerify`. */
  readonly getKey: JWTVerifyGetKey = async (header: JWSHeaderParameters, token: FlattenedJWSInput) => {
    if (!this.keys) {
      if (!this.mayFetch()) throw new errors.JWKSTimeout("the identity provider's keys are not loaded yet");
      await this.refresh().catch(() => {});
      if (!this.keys) throw new errors.JWKSTimeout("the identity provider's keys could not be fetched");
    }
    try {
      return await this.keys(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || !this.mayFetch()) throw error;
      await this.refresh().catch(() => {});
      return this.keys(header, token);
    }
  };

  /** Fetches the set now (one fetch however many callers); rejects when it fails, keeping the last good set. */
  refresh(): Promise<void> {
    this.inFlight ??= this.fetchOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private mayFetch(): boolean {
    return this.now() - this.lastAttempt >= this.cooldownMs;
  }

  private async fetchOnce(): Promise<void> {
    this.lastAttempt = this.now();
    this.fetches++;
    try {
      const response = await fetch(this.url, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs) });
      if (response.status !== 200) throw new Error(`JWKS ${this.url.href} answered ${response.status}`);
      const body: unknown = await response.json();
      this.keys = createLocalJWKSet(jwksOf(body, this.url.href));
    } catch (error) {
      this.options.onFetchError?.(error as Error);
      throw error;
    }
  }
}

/** The body as a key set, or an error naming the URL (createLocalJWKSet checks each key). */
function jwksOf(body: unknown, url: string): JSONWebKeySet {
  if (typeof body === 'object' && body !== null && 'keys' in body && Array.isArray(body.keys)) return { keys: body.keys };
  throw new errors.JWKSInvalid(`${url} did not answer a JSON Web Key Set`);
}
