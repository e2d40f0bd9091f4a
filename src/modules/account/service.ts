/**
 * @module modules/account/service
 * A user's API keys: create (the plaintext answered once), list, revoke. The
 * principal is the signed-in user; a user sees and touches only their own
 * keys (another user's key id is answered 404, as if it did not exist).
 */
import type { ApiKeyInfo, ApiKeys, Principal } from '../../auth';
import { tierAtLeast } from '../../domain/tiers';
import { AppError } from '../../errors';
import type { ApiKeySchema, CreateKeyBody, CreatedKeySchema, KeyListSchema } from './model';

export async function createKey(keys: ApiKeys, principal: Principal, body: CreateKeyBody): Promise<CreatedKeySchema> {
  const tier = body.tier ?? principal.tier;
  if (!tierAtLeast(principal.tier, tier)) {
    throw new AppError('forbidden', `A key's tier is at most your own (${principal.tier}); asked for ${tier}`);
  }
  const { key, info } = await keys.create({ userId: principal.userId, name: body.name, tier });
  return { ...keyView(info), key };
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
