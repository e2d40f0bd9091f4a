/**
 * @module domain/tiers
 * The account tiers (DESIGN §4 "Auth"), lowest first. A session's tier comes
 * from its token, an API key's is stored with the key; routes name the
 * minimum tier they need and the rate limiter picks the quota by tier.
 *
 * @example
 * tierAtLeast('pro', 'free'); // => true
 * tierAtLeast('free', 'pro'); // => false
 */
import { literalUnion } from './signal';

export const TIERS = ['free', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const TierSchema = literalUnion(TIERS, { description: 'Account tier: free < pro < enterprise' });

/** Whether `tier` is `minimum` or above it. */
export function tierAtLeast(tier: Tier, minimum: Tier): boolean {
  return TIERS.indexOf(tier) >= TIERS.indexOf(minimum);
}

/** Whether `value` names a tier (token claims and CLI flags are untrusted text). */
export function isTier(value: unknown): value is Tier {
  return TIERS.some((tier) => tier === value);
}
