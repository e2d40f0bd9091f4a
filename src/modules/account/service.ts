/**
 * @module modules/account/service
 * A user's API keys: create (the plaintext answered once; at most the
 * tier's count of active keys), list, revoke. The
 * principal is the signed-in user; a user sees and touches only their own
 * keys (another user's key id is answered 404, as if it did not exist).
 */
import type { ApiKeyInfo, ApiKeys, Principal } from '../../auth';
import { DEFAULT_KEY_SCOPES, scopesAllowed, scopesBeyond } from '../../domain/scopes';
import { tierAtLeast, type Tier } from '../../domain/tiers';
import { AppError } from '../../errors';
import type { ApiKeySchema, CreateKeyBody, CreatedKeySchema, KeyListSchema } from './model';

/**
 * Issues a key of the signed-in user, at most at their tier and with scopes
 * its tier allows (domain/scopes), while they hold fewer active keys than
 * their tier's cap (`caps`, API_KEYS_PER_TIER). A key (with `admin:keys`)
 * creating a key gives it at most its own tier and scopes: no key mints a
 * stronger one.
 */
export async function createKey(keys: ApiKeys, principal: Principal, body: CreateKeyBody, caps: Readonly<Record<Tier, number>>): Promise<CreatedKeySchema> {
  const tier = body.tier ?? principal.tier;
  if (!tierAtLeast(principal.tier, tier)) {
    throw new AppError('forbidden', `A key's tier is at most your own (${principal.tier}); asked for ${tier}`);
  }
  const scopes = body.scopes ?? DEFAULT_KEY_SCOPES;
  const beyondTier = scopesBeyond(scopes, tier);
  if (beyondTier.length > 0) throw new AppError('forbidden', `A ${tier} key's scopes are at most ${scopesAllowed(tier).join(', ')}; asked for ${beyondTier.join(', ')}`);
  const beyondOwn = scopes.filter((s) => !principal.scopes.includes(s));
  if (beyondOwn.length > 0) throw new AppError('insufficient_scope', `A key creates keys with at most its own scopes (${principal.scopes.join(', ')}); asked for ${beyondOwn.join(', ')}`);
  const cap = caps[principal.userTier ?? principal.tier];
  const created = await keys.create({ userId: principal.userId, name: body.name, tier, scopes, cap });
  if (!created) throw new AppError('forbidden', `The ${principal.tier} tier allows ${cap} active API keys; revoke one or upgrade`);
  return { ...keyView(created.info), key: created.key };
}

export async function listKeys(keys: ApiKeys, principal: Principal): Promise<KeyListSchema> {
  return { keys: (await keys.list(principal.userId)).map(keyView) };
}

export async function revokeKey(keys: ApiKeys, principal: Principal, id: string): Promise<ApiKeySchema> {
  const revoked = await keys.revoke(id, principal.userId);
  if (!revoked) throw new AppError('not_found', `No API key ${id}`);
  return keyView(revoked);
}

function keyView(info: ApiKeyInfo): ApiKeySchema {
  return {
    id: info.id,
    name: info.name,
    prefix: `bk_${info.prefix}`,
    tier: info.tier,
    scopes: info.scopes,
    createdAt: info.createdAt.toISOString(),
    lastUsedAt: info.lastUsedAt?.toISOString() ?? null,
    revokedAt: info.revokedAt?.toISOString() ?? null,
  };
}
