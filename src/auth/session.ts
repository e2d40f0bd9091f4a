/**
 * @module auth/session
 * Verifies `__session` tokens: JWTs signed by an identity provider (Clerk,
 * Auth0, any issuer publishing a JWKS) or, in local mode, by the key in
 * STATE_DIR. Verification never calls the network per request: the keys are a
 * JWKS file or PEM read at boot, or a JWKS URL whose set jose caches (fetched
 * at boot, again after `cacheMaxAge`, and on an unknown `kid` at most once per
 * cooldown).
 *
 * What a token must satisfy (jose `jwtVerify`, docs/jwt/verify):
 * - algorithm RS256 or ES256 only (so `none`, and HS256 "signed" with the
 *   public key as an HMAC secret, are refused before any key is used);
 * - a signature by a known key (`kid` in the set; an unknown `kid` is refused);
 * - `iss` equal to the configured issuer (required); `aud` among the configured
 *   audiences when any are set;
 * - `exp` present and `nbf` (when present) with 5 s of clock skew either way;
 * - `azp` among the authorized parties when any are configured (jose does not
 *   check `azp`; Clerk puts the front end's origin there);
 * - `sub` a non-empty string: the user id.
 * The tier is the configured claim when it names a tier, else `free`.
 *
 * @example
 * const verifier = new SessionVerifier({ issuer: 'https://clerk.example.com', keys: createLocalJWKSet(jwks), tierClaim: 'tier' });
 * await verifier.verify(token); // => { ok: true, principal: { userId: 'user_2a…', tier: 'free', kind: 'session' } }
 */
import { errors, jwtVerify, type CryptoKey, type JWTVerifyGetKey } from 'jose';
import { isTier } from '../domain/tiers';
import { SCOPES } from '../domain/scopes';
import type { Principal } from './principal';

/** The only signature algorithms accepted (DESIGN §1: RS256/ES256). */
export const SESSION_ALGORITHMS = ['RS256', 'ES256'] as const;
export type SessionAlgorithm = (typeof SESSION_ALGORITHMS)[number];

/** Clock skew tolerated on `exp` and `nbf`, in seconds. */
export const CLOCK_SKEW_SECONDS = 5;

/** Longest user id taken from `sub` (Clerk's are ~32 characters, Auth0's `provider|id` a little more). */
const MAX_SUBJECT_LENGTH = 255;

export interface SessionVerifierOptions {
  issuer: string;
  /** A key set (local or remote JWKS) or one public key (PEM). */
  keys: JWTVerifyGetKey | CryptoKey;
  /** Accepted `aud` values; empty or absent → not checked. */
  audience?: string[];
  /** Accepted `azp` values; empty or absent → not checked. */
  authorizedParties?: string[];
  /** The claim carrying the tier. */
  tierClaim: string;
  /** The clock, in ms since the epoch (tests pin it). */
  now?: () => number;
}

/** A verified session: who, and when the provider stated its tier (the token's `iat`, when it has one). */
export type SessionVerification = { ok: true; principal: Principal; statedAt?: Date } | { ok: false; reason: string; code: SessionRefusal };

/**
 * Why a session token was refused, as the 401's `code` says it (issue 31):
 * `expired_session` (past `exp`: sign in again), `invalid_session` (any other
 * fault of the token), or `unverifiable` when the identity provider's keys
 * could not be fetched — a fault of a dependency, not of the token, so a
 * public route serves such a request as anonymous (auth/authenticator).
 */
export type SessionRefusal = 'expired_session' | 'invalid_session' | 'unverifiable';

export class SessionVerifier {
  private readonly now: () => number;

  constructor(private readonly options: SessionVerifierOptions) {
    this.now = options.now ?? Date.now;
  }

  get issuer(): string {
    return this.options.issuer;
  }

  async verify(token: string): Promise<SessionVerification> {
    const { issuer, keys, audience, authorizedParties, tierClaim } = this.options;
    let payload;
    try {
      const verifyOptions = {
        algorithms: [...SESSION_ALGORITHMS],
        issuer,
        audience: audience?.length ? audience : undefined,
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: new Date(this.now()),
        requiredClaims: ['exp', 'sub'],
      };
      // Two calls rather than one over a union: jose overloads a key set and a single key separately.
      ({ payload } = typeof keys === 'function' ? await jwtVerify(token, keys, verifyOptions) : await jwtVerify(token, keys, verifyOptions));
    } catch (error) {
      const reason = failureReason(error);
      return { ok: false, reason, code: error instanceof errors.JWTExpired ? 'expired_session' : reason === UNVERIFIABLE || reason === UNAVAILABLE ? 'unverifiable' : 'invalid_session' };
    }
    if (authorizedParties?.length && !(typeof payload.azp === 'string' && authorizedParties.includes(payload.azp))) {
      return { ok: false, reason: 'token is not for an authorized party (azp)', code: 'invalid_session' };
    }
    const subject = payload.sub;
    if (typeof subject !== 'string' || subject.length === 0 || subject.length > MAX_SUBJECT_LENGTH) {
      return { ok: false, reason: 'token has no usable subject (sub)', code: 'invalid_session' };
    }
    const tier = payload[tierClaim];
    const statedAt = typeof payload.iat === 'number' && Number.isFinite(payload.iat) ? new Date(payload.iat * 1000) : undefined;
    return { ok: true, principal: { userId: subject, tier: isTier(tier) ? tier : 'free', kind: 'session', scopes: SCOPES }, statedAt };
  }
}

const UNVERIFIABLE = "the identity provider's keys could not be fetched";
const UNAVAILABLE = "the identity provider's keys are unavailable";

/** One sentence for the 401 and the log; never the token itself. */
function failureReason(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'token expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'nbf':
        return 'token not yet valid (nbf)';
      case 'iss':
        return 'token from another issuer (iss)';
      case 'aud':
        return 'token for another audience (aud)';
      default:
        return `token claim '${error.claim}' ${error.reason === 'missing' ? 'missing' : 'invalid'}`;
    }
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return `token algorithm not allowed (only ${SESSION_ALGORITHMS.join(', ')})`;
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return 'token signed by an unknown key (kid)';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'token signature does not verify';
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return UNVERIFIABLE;
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return 'malformed token';
  if (error instanceof errors.JOSEError) return `invalid token (${error.code})`;
  return UNAVAILABLE;
}
