/**
 * @module auth/access
 * What a route needs and the one decision against a request's identity:
 * - `'session'`: the `__session` cookie (account writes: a leaked API key must
 *   not mint more keys);
 * - `'session-or-key'`: the cookie or an API key as `Authorization: Bearer bk_…`;
 * - `{ accept, tier }`: either of those at `tier` or above.
 * Missing or refused credentials are 401 `unauthorized`, a tier below the
 * route's 403 `forbidden`, both with a `WWW-Authenticate` challenge (RFC 9110
 * §11.6.1; the Bearer parameters of RFC 6750 §3). A cookie-authenticated
 * write from another site is 403 `forbidden` (auth/csrf).
 */
import { AppError } from '../errors';
import { tierAtLeast, type Tier } from '../domain/tiers';
import { crossSiteWrite } from './csrf';
import type { CredentialKind, Identity, Principal } from './principal';

export const SESSION_COOKIE = '__session';
const REALM = 'breakline';

export type Accept = 'session' | 'session-or-key';
export type AuthNeed = Accept | { accept: Accept; tier: Tier };

export function acceptOf(need: AuthNeed): Accept {
  return typeof need === 'string' ? need : need.accept;
}

export function tierOf(need: AuthNeed): Tier | undefined {
  return typeof need === 'string' ? undefined : need.tier;
}

/** The principal the route may act for, or throws the 401/403 to answer. */
export function authorize(identity: Identity, need: AuthNeed, request: Request, allowedOrigins: readonly string[]): Principal {
  const accept = acceptOf(need);
  const kinds: CredentialKind[] = accept === 'session' ? ['session'] : ['session', 'key'];
  if (identity.state === 'anonymous') {
    throw unauthorized(kinds, accept === 'session' ? `Authentication required: send the ${SESSION_COOKIE} cookie` : `Authentication required: send the ${SESSION_COOKIE} cookie or an API key as 'Authorization: Bearer bk_…'`);
  }
  if (identity.state === 'refused') {
    const what = identity.kind === 'session' ? 'session' : 'API key';
    throw unauthorized(kinds, `Invalid ${what}: ${identity.reason}`, identity.kind === 'key' ? identity.reason : undefined);
  }
  const { principal } = identity;
  if (!kinds.includes(principal.kind)) {
    throw unauthorized(kinds, `This route needs a session (the ${SESSION_COOKIE} cookie); API keys are not accepted here`);
  }
  const minimum = tierOf(need);
  if (minimum && !tierAtLeast(principal.tier, minimum)) {
    throw new AppError('forbidden', `This route needs the ${minimum} tier or above; this ${principal.kind === 'key' ? 'API key' : 'account'} is ${principal.tier}`, {
      'www-authenticate': challenge(principal.kind, { error: 'insufficient_scope', error_description: `requires tier ${minimum}` }),
    });
  }
  if (principal.kind === 'session') {
    const crossSite = crossSiteWrite(request, allowedOrigins);
    if (crossSite) throw new AppError('forbidden', `Refused: ${crossSite} (CSRF rule; send writes from the same origin or list yours in AUTH_ALLOWED_ORIGINS)`);
  }
  return principal;
}

/** A quoted-string's content as a header allows it: printable ASCII, no quote or backslash (RFC 9110 §5.6.4). */
function headerSafe(text: string): string {
  return text.replaceAll('…', '...').replaceAll('"', "'").replace(/[^\x20-\x7e]|\\/g, '');
}

function unauthorized(kinds: CredentialKind[], message: string, keyError?: string): AppError {
  const challenges = kinds.map((kind) => challenge(kind, kind === 'key' && keyError ? { error: 'invalid_token', error_description: keyError } : {}));
  return new AppError('unauthorized', message, { 'www-authenticate': challenges.join(', ') });
}

/**
 * A challenge per credential: RFC 6750's `Bearer` for API keys; for the
 * session cookie, a `Cookie` scheme naming the cookie (there is no registered
 * scheme for cookies; the name says what to send).
 */
function challenge(kind: CredentialKind, params: Record<string, string>): string {
  const base = kind === 'key' ? [`Bearer realm="${REALM}"`] : [`Cookie realm="${REALM}"`, `cookie-name="${SESSION_COOKIE}"`];
  const extra = Object.entries(params).map(([name, value]) => `${name}="${headerSafe(value)}"`);
  return [...base, ...extra].join(', ');
}
