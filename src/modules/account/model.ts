/** @module modules/account/model — schemas of the Account tag: API keys (account features of issue 17 join here). */
import { t, type Static } from 'elysia';
import { TierSchema } from '../../domain/tiers';
import { SCOPES, ScopeSchema } from '../../domain/scopes';
import { MAX_KEY_NAME_LENGTH } from '../../auth';

export const CreateKeyBody = t.Object({
  name: t.String({ minLength: 1, maxLength: MAX_KEY_NAME_LENGTH, description: 'What the key is for, shown in listings', examples: ['trading bot'], error: `Body field 'name' must be 1–${MAX_KEY_NAME_LENGTH} characters` }),
  tier: t.Optional({ ...TierSchema, description: "The key's tier; at most your own (default: your own)", error: "Body field 'tier' must be one of: free, pro, enterprise" }),
  scopes: t.Optional(
    t.Array({ ...ScopeSchema, error: `Body field 'scopes' must be a list of distinct scopes from: ${SCOPES.join(', ')}` }, {
      minItems: 1,
      maxItems: SCOPES.length,
      uniqueItems: true,
      description: "What the key may do (default: ['read']): read (your own objects), write (create, change, delete them), backtest, admin:keys (manage your keys). A free key only reads; pro adds write and backtest; enterprise adds admin:keys. A key creating a key gives it at most its own scopes.",
      examples: [['read', 'write']],
      error: `Body field 'scopes' must be a list of distinct scopes from: ${SCOPES.join(', ')}`,
    }),
  ),
});
export type CreateKeyBody = Static<typeof CreateKeyBody>;

const KEY_ID_PATTERN = '^key_[0-9a-z]{20}$';
export const KeyParams = t.Object({
  id: t.String({ pattern: KEY_ID_PATTERN, description: 'The key id (key_…)', examples: ['key_8k2qd0xw5n3c7v1b9m4f'], error: `Path parameter 'id' must be a key id matching ${KEY_ID_PATTERN}` }),
});

const Timestamp = (description: string) => t.String({ format: 'date-time', description });
const NullableTimestamp = (description: string) => t.Union([t.String({ format: 'date-time' }), t.Null()], { description });

export const ApiKeySchema = t.Object(
  {
    id: t.String({ description: 'key_…' }),
    name: t.String(),
    prefix: t.String({ description: "The key's first characters (bk_ and 8 more), to recognise it; the rest is never shown again" }),
    tier: TierSchema,
    scopes: t.Array(ScopeSchema, { description: 'What the key was given (it acts with those its owner\'s current tier allows)' }),
    createdAt: Timestamp('When the key was created'),
    lastUsedAt: NullableTimestamp('Last authenticated request, to within a minute (written in batches); null when never used'),
    revokedAt: NullableTimestamp('When the key was revoked; null while it is active'),
  },
  { title: 'ApiKey' },
);
export type ApiKeySchema = Static<typeof ApiKeySchema>;

export const CreatedKeySchema = t.Composite(
  [ApiKeySchema, t.Object({ key: t.String({ description: 'The whole key, shown this once: store it now (only its hash is kept)' }) })],
  { title: 'CreatedApiKey' },
);
export type CreatedKeySchema = Static<typeof CreatedKeySchema>;

export const KeyListSchema = t.Object({ keys: t.Array(ApiKeySchema, { description: 'Your keys, newest first, revoked ones included' }) }, { title: 'ApiKeyList' });
export type KeyListSchema = Static<typeof KeyListSchema>;

/** OpenAPI text of the Account routes. */
export const ACCOUNT_DOCS = {
  create: {
    tags: ['Account'],
    summary: 'Create an API key',
    description:
      "Issues a key `bk_…` for the signed-in user. The whole key is in this response only; the server keeps its SHA-256 and its first 8 characters. Send it as `Authorization: Bearer bk_…`. Needs a session (the `__session` cookie) or a key with `admin:keys`; choose the key's `scopes` (default read only; a free key only reads, pro adds write and backtest, enterprise adds admin:keys; a key creating a key gives it at most its own scopes and tier); a key's tier is at most your own, and a key acts at most at your current tier (a downgrade reaches your keys on your next sign-in, or when the operator states it). Active keys per user are capped by tier (API_KEYS_PER_TIER; default free 5, pro 25, enterprise 100): past it, 403. Your keys share your rate limit (your tier's quota); a key of a lower tier than yours is also held to its own tier's.",
  },
  list: {
    tags: ['Account'],
    summary: 'List your API keys',
    description: 'Your keys (never another user’s), newest first, with their prefix, tier, creation, scopes, last use and revocation. Needs a session or a key with `admin:keys`.',
  },
  revoke: {
    tags: ['Account'],
    summary: 'Revoke an API key',
    description: 'Revokes one of your keys at once: the next request with it is refused, on every instance. Revoking a revoked key answers it unchanged; a key that is not yours is 404. Needs a session or a key with `admin:keys`.',
  },
};
