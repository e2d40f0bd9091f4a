/**
 * @module auth/principal
 * Who a request acts for, once its credential is checked: the user id (the
 * session token's `sub`, or the owner of an API key), the tier it acts at,
 * and which credential proved it. `Identity` is the outcome of looking at a request's
 * credentials: none, a principal, or a credential that was presented and
 * refused (with the reason, for the 401 and the log).
 */
import type { Scope } from '../domain/scopes';
import type { Tier } from '../domain/tiers';

/** The two credentials: the `__session` cookie (a provider's JWT) and an API key sent as a Bearer token. */
export type CredentialKind = 'session' | 'key';

export interface Principal {
  userId: string;
  tier: Tier;
  kind: CredentialKind;
  /** The API key's id (`key_…`) when `kind` is `key`. */
  keyId?: string;
  /**
   * The user's own tier, when `kind` is `key`: the key's `tier` is the lower
   * of its own and this (auth/api-keys). The user's quota is counted at it;
   * a key of a lower tier also has its own, lower one (plugins/rate-limit).
   */
  userTier?: Tier;
  /**
   * What the principal may do (domain/scopes): every scope for a session;
   * for a key, the scopes it was given that its owner's current tier allows.
   */
  scopes: readonly Scope[];
}

/**
 * Why a presented credential was refused, as the 401's `code` (issue 31):
 * `invalid_authorization` (an Authorization header that is not
 * `Bearer bk_…`), `invalid_key` (malformed or unknown), `revoked_key`,
 * `expired_session`, `invalid_session`, and `unverifiable` (the identity
 * provider's keys could not be fetched: not the caller's fault).
 */
export type Refusal = 'invalid_authorization' | 'invalid_key' | 'revoked_key' | 'expired_session' | 'invalid_session' | 'unverifiable';

export type Identity =
  | { state: 'anonymous' }
  | { state: 'authenticated'; principal: Principal }
  | { state: 'refused'; kind: CredentialKind; reason: string; code: Refusal };

export const ANONYMOUS: Identity = Object.freeze({ state: 'anonymous' });
