/**
 * @module auth/principal
 * Who a request acts for, once its credential is checked: the user id (the
 * session token's `sub`, or the owner of an API key), the tier, and which
 * credential proved it. `Identity` is the outcome of looking at a request's
 * credentials: none, a principal, or a credential that was presented and
 * refused (with the reason, for the 401 and the log).
 */
import type { Tier } from '../domain/tiers';

/** The two credentials: the `__session` cookie (a provider's JWT) and an API key sent as a Bearer token. */
export type CredentialKind = 'session' | 'key';

export interface Principal {
  userId: string;
  tier: Tier;
  kind: CredentialKind;
  /** The API key's id (`key_…`) when `kind` is `key`. */
  keyId?: string;
}

export type Identity =
  | { state: 'anonymous' }
  | { state: 'authenticated'; principal: Principal }
  | { state: 'refused'; kind: CredentialKind; reason: string };

export const ANONYMOUS: Identity = Object.freeze({ state: 'anonymous' });
