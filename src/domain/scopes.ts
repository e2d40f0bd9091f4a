/**
 * @module domain/scopes
 * What an API key may do (issue 31): the scopes a key is given at creation,
 * and the most each tier allows a key. A session is its user and holds every
 * scope; a key holds the scopes it was given that its owner's current tier
 * still allows (auth/api-keys `keyPrincipal`), so a downgrade narrows the
 * user's keys on their next request. Which scope and tier each route and
 * GraphQL field needs is auth/route-access's one table.
 *
 * - `read`: the owner's own objects (watchlists, alert rules, notifications,
 *   journal, exports); public data needs no scope at all;
 * - `write`: creating, changing and deleting them (REST writes, GraphQL mutations);
 * - `backtest`: walk-forward backtests and their jobs;
 * - `admin:keys`: listing, creating and revoking the owner's API keys (a key
 *   never mints a key with more scopes or a higher tier than its own).
 *
 * A free key only reads (the free tier's keys are read-only); a pro key may
 * also write and backtest; an enterprise key may also manage keys.
 *
 * @example
 * scopesAllowed('free'); // => ['read']
 * withinTier(['read', 'write'], 'free'); // => ['read']
 */
import { literalUnion } from './signal';
import type { Tier } from './tiers';

export const SCOPES = ['read', 'write', 'backtest', 'admin:keys'] as const;
export type Scope = (typeof SCOPES)[number];

export const ScopeSchema = literalUnion(SCOPES, { description: 'What an API key may do: read | write | backtest | admin:keys' });

/** The scopes a key of each tier may hold. */
export const KEY_SCOPES_BY_TIER: Readonly<Record<Tier, readonly Scope[]>> = {
  free: ['read'],
  pro: ['read', 'write', 'backtest'],
  enterprise: ['read', 'write', 'backtest', 'admin:keys'],
};

/** A key's scopes when none are named at creation: reading only (least privilege; what every key could do before scopes). */
export const DEFAULT_KEY_SCOPES: readonly Scope[] = ['read'];

export function scopesAllowed(tier: Tier): readonly Scope[] {
  return KEY_SCOPES_BY_TIER[tier];
}

/** The scopes of `scopes` that `tier` allows, in SCOPES order. */
export function withinTier(scopes: readonly Scope[], tier: Tier): Scope[] {
  const allowed = KEY_SCOPES_BY_TIER[tier];
  return SCOPES.filter((s) => scopes.includes(s) && allowed.includes(s));
}

/** The scopes of `scopes` that `tier` does not allow (empty: all allowed). */
export function scopesBeyond(scopes: readonly Scope[], tier: Tier): Scope[] {
  return scopes.filter((s) => !KEY_SCOPES_BY_TIER[tier].includes(s));
}

/** Whether `value` names a scope (CLI flags and stored rows are untrusted text). */
export function isScope(value: unknown): value is Scope {
  return SCOPES.some((scope) => scope === value);
}
