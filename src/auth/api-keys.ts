/**
 * @module auth/api-keys
 * Issuing, listing, revoking and verifying API keys (the unkey shape: one
 * verify function answering a typed result, never throwing for a bad key).
 *
 * Verification reads the key's row on every request — no cache — so a
 * revoked key is refused on the next request, on every instance; with it,
 * its owner's tier as last stated (auth/user-tiers), so a downgrade caps the
 * key's tier on the next request too (`keyPrincipal`). Its path
 * does the same work whether the prefix is unknown or the prefix is right and
 * the secret wrong: one lookup by prefix, one SHA-256 of the presented key,
 * one constant-time comparison of 32-byte digests (against a dummy hash when
 * no row matched), and one answer ("unknown API key") for both. What can
 * still differ is the database answering a row or none (bench/auth: about 3–6%
 * on PGlite), which tells at most whether an 8-character prefix exists — the
 * part of a key that listings show anyway, leaving ~208 secret bits.
 *
 * Last use is kept in memory and written in one statement per `flushMs`
 * (60 s) and at close, so a busy key costs no write per request; a listing
 * on the same instance already shows the unflushed time.
 */
import type { ApiKeysRepository, StoredApiKey } from '../db/repositories/api-keys';
import { isUniqueViolation } from '../db/repositories/api-keys';
import { DEFAULT_KEY_SCOPES, SCOPES, scopesAllowed, scopesBeyond, withinTier, type Scope } from '../domain/scopes';
import { tierAtLeast, type Tier } from '../domain/tiers';
import { newId } from '../ids';
import type { Logger } from '../log';
import { DUMMY_HASH_HEX, generateApiKey, parseApiKey, SHA256_HASHING, type KeyHashing } from './api-key-format';
import type { Principal } from './principal';

/** A key as its owner sees it: everything but the hash. */
export type ApiKeyInfo = Omit<StoredApiKey, 'hash'>;

/** A new key: the plaintext (shown once) and what is kept. */
export interface CreatedKey {
  key: string;
  info: ApiKeyInfo;
}

export type KeyVerification = { ok: true; principal: Principal } | { ok: false; reason: string; code: 'invalid_key' | 'revoked_key' };

export interface ApiKeysOptions {
  log: Logger;
  hashing?: KeyHashing;
  /** How often last-use times are written; 0 → only on `flush()`/`close()`. */
  flushMs?: number;
  now?: () => number;
}

/** Longest user id and key name accepted. */
export const MAX_USER_ID_LENGTH = 255;
export const MAX_KEY_NAME_LENGTH = 100;

/**
 * A key's principal: its effective tier the lower of its own and its owner's
 * as last stated (auth/user-tiers; the key's own when never stated), the
 * owner's tier, whose quota the key shares, and its scopes within the
 * effective tier (domain/scopes: a downgrade narrows them at once).
 */
export function keyPrincipal(key: { id: string; userId: string; tier: Tier; scopes: readonly Scope[] }, ownerTier: Tier | undefined): Principal {
  const userTier = ownerTier ?? key.tier;
  const tier = tierAtLeast(userTier, key.tier) ? key.tier : userTier;
  return { userId: key.userId, tier, kind: 'key', keyId: key.id, userTier, scopes: withinTier(key.scopes, tier) };
}

export class ApiKeys {
  private readonly pendingUse = new Map<string, number>();
  private readonly hashing: KeyHashing;
  private readonly now: () => number;
  private readonly timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly repository: ApiKeysRepository,
    private readonly options: ApiKeysOptions,
  ) {
    this.hashing = options.hashing ?? SHA256_HASHING;
    this.now = options.now ?? Date.now;
    const flushMs = options.flushMs ?? 60_000;
    if (flushMs > 0) {
      this.timer = setInterval(() => void this.flush(), flushMs);
      this.timer.unref?.();
    }
  }

  /**
   * Issues a key; the plaintext is in the answer and nowhere else, ever.
   * `cap`: the most active keys the owner may hold (the tier's; none for the
   * operator), else undefined. `scopes`: what it may do (default: read
   * only), within what its tier allows (domain/scopes; RangeError past it).
   */
  async create(input: { userId: string; name: string; tier: Tier; scopes?: readonly Scope[] }): Promise<CreatedKey>;
  async create(input: { userId: string; name: string; tier: Tier; scopes?: readonly Scope[]; cap: number }): Promise<CreatedKey | undefined>;
  async create(input: { userId: string; name: string; tier: Tier; scopes?: readonly Scope[]; cap?: number }): Promise<CreatedKey | undefined> {
    const scopes = input.scopes ?? DEFAULT_KEY_SCOPES;
    if (input.userId.length === 0 || input.userId.length > MAX_USER_ID_LENGTH) throw new RangeError(`user id must be 1–${MAX_USER_ID_LENGTH} characters`);
    if (input.name.length === 0 || input.name.length > MAX_KEY_NAME_LENGTH) throw new RangeError(`key name must be 1–${MAX_KEY_NAME_LENGTH} characters`);
    if (scopes.length === 0 || scopesBeyond(scopes, input.tier).length > 0) throw new RangeError(`a ${input.tier} key's scopes are 1 or more of ${scopesAllowed(input.tier).join(', ')}; asked for ${scopes.join(', ') || 'none'}`);
    // A prefix is 8 base62 characters (2^47.6): a clash is rare, and answered by drawing again.
    for (let attempt = 1; ; attempt++) {
      const { key, prefix } = generateApiKey();
      try {
        const row = await this.repository.insert(
          {
            id: newId('key'),
            userId: input.userId,
            name: input.name,
            prefix,
            hash: this.hashing.digest(key).toString('hex'),
            tier: input.tier,
            scopes: SCOPES.filter((s) => scopes.includes(s)),
            createdAt: new Date(this.now()),
          },
          input.cap,
        );
        return row && { key, info: this.info(row) };
      } catch (error) {
        if (attempt >= 3 || !isUniqueViolation(error)) throw error;
      }
    }
  }

  async list(userId: string): Promise<ApiKeyInfo[]> {
    return (await this.repository.listByUser(userId)).map((row) => this.info(row));
  }

  /** Revokes a key of `userId` (any owner's when null, the operator's CLI); undefined when there is no such key. */
  async revoke(id: string, userId: string | null): Promise<ApiKeyInfo | undefined> {
    const row = await this.repository.revoke(id, userId, new Date(this.now()));
    return row && this.info(row);
  }

  async verify(presented: string): Promise<KeyVerification> {
    const parsed = parseApiKey(presented);
    if (!parsed) return { ok: false, reason: 'malformed API key (expected bk_ and 43 letters or digits)', code: 'invalid_key' };
    const row = await this.repository.byPrefix(parsed.prefix);
    const matches = this.hashing.equal(this.hashing.digest(presented), Buffer.from(row?.hash ?? DUMMY_HASH_HEX, 'hex'));
    if (!row || !matches) return { ok: false, reason: 'unknown API key', code: 'invalid_key' };
    if (row.revokedAt) return { ok: false, reason: `API key ${row.id} was revoked`, code: 'revoked_key' };
    this.pendingUse.set(row.id, this.now());
    return { ok: true, principal: keyPrincipal(row, row.ownerTier) };
  }

  /** Writes the last-use times gathered since the previous flush. */
  async flush(): Promise<void> {
    if (this.pendingUse.size === 0) return;
    const batch = new Map(this.pendingUse);
    this.pendingUse.clear();
    try {
      await this.repository.touch(batch);
    } catch (error) {
      // Put them back (newer uses win) for the next flush; last use is bookkeeping, never worth failing a request.
      for (const [id, at] of batch) if (!((this.pendingUse.get(id) ?? 0) > at)) this.pendingUse.set(id, at);
      this.options.log.warn('API key last-use flush failed; will retry', { keys: batch.size, error: String(error) });
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  private info(row: StoredApiKey): ApiKeyInfo {
    const { hash: _hash, ...info } = row;
    const pending = this.pendingUse.get(row.id);
    if (pending !== undefined && !(info.lastUsedAt && info.lastUsedAt.getTime() >= pending)) info.lastUsedAt = new Date(pending);
    return info;
  }
}
