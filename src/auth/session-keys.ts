/**
 * @module auth/session-keys
 * Builds the session verifier the configuration asks for: the identity
 * provider's keys (JWKS URL, JWKS file or PEM) when AUTH_ISSUER and a key
 * source are set, else local mode with the local key file (auth/local-key). Exactly one is
 * trusted: with a provider configured, locally minted tokens are refused
 * (their issuer and key are not the provider's).
 */
import { createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createLocalJWKSet, importSPKI, type JWTVerifyGetKey } from 'jose';
import type { AuthConfig, IdentityProviderConfig } from '../config';
import type { Logger } from '../log';
import { JwksCache, type JwksCacheOptions } from './jwks-cache';
import { loadOrCreateLocalKey, LOCAL_AUDIENCE, LOCAL_ISSUER } from './local-key';
import { SessionVerifier, type SessionAlgorithm } from './session';

export interface SessionSetup {
  verifier: SessionVerifier;
  mode: 'provider' | 'local';
  /** What the boot log says about which tokens are trusted. */
  description: Record<string, string>;
  close(): void;
}

export interface SessionSetupOptions {
  now?: () => number;
  log: Logger;
  /** JWKS URL schedule (tests shorten the cooldown). */
  jwks?: Omit<JwksCacheOptions, 'now' | 'onFetchError'>;
}

/** A key source that cannot be used (unreadable file, not a JWKS, an unsupported PEM key). */
export class SessionKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SessionKeyError';
  }
}

export async function createSessionSetup(auth: AuthConfig, options: SessionSetupOptions): Promise<SessionSetup> {
  const { now, log } = options;
  const provider = auth.provider;
  if (!provider) {
    const key = await loadOrCreateLocalKey(auth.localKeyFile);
    return {
      verifier: new SessionVerifier({ issuer: LOCAL_ISSUER, audience: [LOCAL_AUDIENCE], keys: createLocalJWKSet({ keys: [key.publicJwk] }), tierClaim: auth.tierClaim, now }),
      mode: 'local',
      description: {
        mode: 'local',
        trusts: `session tokens minted by 'breakline token mint' (issuer ${LOCAL_ISSUER}, key ${key.path}), because no identity provider is configured`,
      },
      close: () => {},
    };
  }
  const { keys, source, close } = await providerKeys(provider, { ...options.jwks, now, onFetchError: (error) => log.warn('identity provider JWKS fetch failed; keeping the last good keys', { error: error.message }) });
  return {
    verifier: new SessionVerifier({ issuer: provider.issuer, audience: provider.audience, authorizedParties: provider.authorizedParties, keys, tierClaim: auth.tierClaim, now }),
    mode: 'provider',
    description: {
      mode: 'provider',
      trusts: `session tokens from ${provider.issuer} (keys: ${source}); locally minted tokens are not trusted`,
    },
    close,
  };
}

async function providerKeys(provider: IdentityProviderConfig, jwks: JwksCacheOptions): Promise<{ keys: JWTVerifyGetKey | CryptoKey; source: string; close(): void }> {
  const { keys } = provider;
  switch (keys.source) {
    case 'jwks-url': {
      const cache = new JwksCache(new URL(keys.url), jwks);
      // Loaded at boot; a provider that is down now is retried on the first token (and then at most once per cooldown).
      await cache.refresh().catch(() => {});
      return { keys: cache.getKey, source: `JWKS ${keys.url}`, close: () => cache.close() };
    }
    case 'jwks-file': {
      let set;
      try {
        set = createLocalJWKSet(JSON.parse(readFileSync(keys.path, 'utf8')));
      } catch (error) {
        throw new SessionKeyError(`AUTH_JWKS_FILE ${keys.path}: ${(error as Error).message}`);
      }
      return { keys: set, source: `JWKS file ${keys.path}`, close: () => {} };
    }
    case 'pem': {
      const algorithm = pemAlgorithm(keys.pem);
      return { keys: await importSPKI(keys.pem, algorithm), source: `PEM public key (${algorithm})`, close: () => {} };
    }
  }
}

/** RS256 for an RSA key, ES256 for a P-256 key; anything else is refused at boot. */
function pemAlgorithm(pem: string): SessionAlgorithm {
  let key;
  try {
    key = createPublicKey(pem);
  } catch (error) {
    throw new SessionKeyError(`AUTH_PUBLIC_KEY: ${(error as Error).message}`);
  }
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  throw new SessionKeyError(`AUTH_PUBLIC_KEY: a ${key.asymmetricKeyType} key; only RSA (RS256) and P-256 (ES256) keys are accepted`);
}
