/**
 * @module auth
 * Identity and access, built once by services.ts: the session verifier (the
 * configured identity provider, or local mode), the API keys over the
 * database, each user's tier as last stated (which caps their keys'), and the
 * authenticator that resolves a request's principal.
 * Routes name their row of the one authorisation table (auth/route-access)
 * through plugins/auth, GraphQL fields through their REST route; the rate limiter asks
 * `authenticator.principalOf(request)`.
 */
import type { Config } from '../config';
import { ApiKeysRepository } from '../db/repositories/api-keys';
import { UserTiersRepository } from '../db/repositories/user-tiers';
import type { Db } from '../db/client';
import type { Logger } from '../log';
import { ApiKeys } from './api-keys';
import { Authenticator } from './authenticator';
import { createSessionSetup, type SessionSetupOptions } from './session-keys';
import { UserTiers } from './user-tiers';

export { SESSION_COOKIE } from './access';
export { accessOf, ROUTE_ACCESS, type ProtectedRoute, type RouteAccess } from './route-access';
export { ApiKeys, MAX_KEY_NAME_LENGTH, MAX_USER_ID_LENGTH, type ApiKeyInfo, type KeyVerification } from './api-keys';
export { Authenticator } from './authenticator';
export { UserTiers } from './user-tiers';
export type { CredentialKind, Identity, Principal, Refusal } from './principal';

export interface Auth {
  authenticator: Authenticator;
  keys: ApiKeys;
  /** Each user's tier as last stated, which caps their keys' (auth/user-tiers). */
  tiers: UserTiers;
  /** `provider` or `local`, and what the boot log says about it. */
  mode: 'provider' | 'local';
  description: Record<string, string>;
  close(): Promise<void>;
}

export interface AuthOverrides {
  now?: () => number;
  jwks?: SessionSetupOptions['jwks'];
  /** Last-use flush interval of API keys (ms). */
  keysFlushMs?: number;
}

export async function createAuth(config: Config, db: Db, log: Logger, overrides: AuthOverrides = {}): Promise<Auth> {
  const session = await createSessionSetup(config.auth, { now: overrides.now, log, jwks: overrides.jwks });
  const keys = new ApiKeys(new ApiKeysRepository(db), { log, now: overrides.now, flushMs: overrides.keysFlushMs });
  const tiers = new UserTiers(new UserTiersRepository(db), log, overrides.now);
  return {
    authenticator: new Authenticator({ sessions: session.verifier, keys, tiers, allowedOrigins: config.auth.allowedOrigins, log }),
    keys,
    tiers,
    mode: session.mode,
    description: session.description,
    async close() {
      session.close();
      await keys.close();
    },
  };
}
