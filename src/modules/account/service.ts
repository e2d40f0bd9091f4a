/**
 * @module modules/account/service
 * A user's API keys: create (the plaintext answered once; at most the
 * tier's count of active keys), list, revoke. The
 * principal is the signed-in user; a user sees and touches only their own
 * keys (another user's key id is answered 404, as if it did not exist).
 */
import type { ApiKeyInfo, ApiKeys, Principal } from '../../auth';
import { tierAtLeast, type Tier } from '../../domain/tiers';
import { AppError } from '../../errors';
import type { ApiKeySchema, CreateKeyBody, CreatedKeySchema, KeyListSchema } from './model';

/** Issues a key of the signed-in user, at most at their tier, while they hold fewer active keys than their tier's cap (`caps`, API_KEYS_PER_TIER). */
export async function createKey(keys: ApiKeys, principal: Principal, body: CreateKeyBody, caps: Readonly<Record<Tier, number>>): Promise<CreatedKeySchema> {
  const tier = body.tier ?? principal.tier;
  if (!tierAtLeast(principal.tier, tier)) {
    throw new AppError('forbidden', `A key's tier is at most your own (${principal.tier}); asked for ${tier}`);
  }
  const cap = caps[principal.tier];
  const created = await keys.create({ userId: principal.userId, name: body.name, tier, cap });
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
    createdAt: info.createdAt.toISOString(),
    lastUsedAt: info.lastUsedAt?.toISOString() ?? null,
    revokedAt: info.revokedAt?.toISOString() ?? null,
  };
}
