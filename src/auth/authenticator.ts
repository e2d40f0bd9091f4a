/**
 * @module auth/authenticator
 * Reads a request's credential and resolves who it acts for, once per request:
 * the rate limiter (before routing) and the route's auth check (after) ask the
 * same `identify(request)`, which answers the held promise the second time.
 *
 * Which credential counts: an `Authorization` header, when present, is the one
 * (it must be `Bearer bk_…`; a client that sends it means it); else the
 * `__session` cookie. A request with neither is anonymous, answered without a
 * promise so public reads stay synchronous. A presented credential that fails
 * is `refused` with the reason and a code (auth/principal `Refusal`), and
 * every route answers it 401 with that code, public routes too (issue 31: a
 * bot with a revoked key must learn it, not be served at the anonymous
 * quota): `principalOf`, which the rate limiter asks of every /api request
 * before routing, throws it. The one exception is a session the identity
 * provider's keys could not check (`unverifiable`, a dependency's fault): a
 * public route serves it as anonymous, a protected one answers 401. A
 * verified session's tier is recorded for the user's API keys (auth/user-tiers).
 */
import { AppError } from '../errors';
import type { Logger } from '../log';
import { API_KEY_MARK } from './api-key-format';
import type { ApiKeys } from './api-keys';
import { authorize, refused, SESSION_COOKIE } from './access';
import type { RouteAccess } from './route-access';
import { ANONYMOUS, type Identity, type Principal } from './principal';
import type { SessionVerifier } from './session';
import type { UserTiers } from './user-tiers';

export interface AuthenticatorOptions {
  sessions: SessionVerifier;
  keys: ApiKeys;
  /** Where each verified session's tier is recorded, for the user's API keys (auth/user-tiers). */
  tiers: UserTiers;
  /** Origins besides the server's own allowed to send cookie-authenticated writes. */
  allowedOrigins: readonly string[];
  log: Logger;
}

const BEARER = /^Bearer +(\S+)\s*$/i;

export class Authenticator {
  /** Identities resolved for requests still in flight (a Request is the key, so the entry goes with it). */
  private readonly resolved = new WeakMap<Request, Promise<Identity>>();

  constructor(private readonly options: AuthenticatorOptions) {}

  /** Who the request acts for; a credential is checked at most once per request. */
  identify(request: Request): Identity | Promise<Identity> {
    const authorization = request.headers.get('authorization');
    const cookies = authorization === null ? request.headers.get('cookie') : null;
    if (authorization === null && !cookies?.includes(`${SESSION_COOKIE}=`)) return ANONYMOUS;
    let identity = this.resolved.get(request);
    if (!identity) {
      identity = authorization !== null ? this.fromAuthorization(authorization) : this.fromCookie(cookies ?? '');
      this.resolved.set(request, identity);
    }
    return identity;
  }

  /**
   * The principal of a request that carries a valid credential, else null
   * (the rate limiter's question); throws the 401 of a refused credential.
   * A lookup that failed (the database) counts as none: the request is
   * limited as anonymous, and a protected route answers the failure.
   */
  principalOf(request: Request): Principal | null | Promise<Principal | null> {
    const identity = this.identify(request);
    return identity instanceof Promise ? identity.then(principalIn, () => null) : principalIn(identity);
  }

  /** The route's decision: its principal, or throws the 401/403 (plugins/auth calls it). */
  async authorize(request: Request, access: RouteAccess): Promise<Principal> {
    return authorize(await this.identify(request), access, request, this.options.allowedOrigins);
  }

  private async fromAuthorization(header: string): Promise<Identity> {
    const token = BEARER.exec(header)?.[1];
    if (!token) return { state: 'refused', kind: 'key', reason: "expected 'Authorization: Bearer bk_…'", code: 'invalid_authorization' };
    if (!token.startsWith(API_KEY_MARK)) {
      return { state: 'refused', kind: 'key', reason: `Bearer credentials are API keys (bk_…); send a session as the ${SESSION_COOKIE} cookie`, code: 'invalid_authorization' };
    }
    let verification;
    try {
      verification = await this.options.keys.verify(token);
    } catch (error) {
      this.options.log.error('API key lookup failed', { error: String(error) });
      throw new AppError('unavailable', 'Credentials cannot be checked right now; retry shortly');
    }
    return verification.ok ? { state: 'authenticated', principal: verification.principal } : { state: 'refused', kind: 'key', reason: verification.reason, code: verification.code };
  }

  private async fromCookie(header: string): Promise<Identity> {
    const token = new Bun.CookieMap(header).get(SESSION_COOKIE);
    if (!token) return ANONYMOUS;
    const verification = await this.options.sessions.verify(token);
    if (!verification.ok) {
      this.options.log.debug('session refused', { reason: verification.reason });
      return { state: 'refused', kind: 'session', reason: verification.reason, code: verification.code };
    }
    this.options.tiers.observe(verification.principal, verification.statedAt);
    return { state: 'authenticated', principal: verification.principal };
  }
}

function principalIn(identity: Identity): Principal | null {
  if (identity.state === 'refused' && identity.code !== 'unverifiable') throw refused(identity);
  return identity.state === 'authenticated' ? identity.principal : null;
}
