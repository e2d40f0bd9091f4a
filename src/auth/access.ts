/**
 * @module auth/access
 * The one decision of a protected route against a request's identity, by its
 * row of the authorisation table (auth/route-access: the scope an API key
 * needs, the lowest tier):
 * - no credential: 401 `unauthorized`;
 * - a credential presented and refused: 401 with the refusal's code
 *   (`invalid_key`, `revoked_key`, `expired_session`, …: auth/principal);
 * - a key without the row's scope: 403 `insufficient_scope`;
 * - a tier below the row's: 403 `forbidden`;
 * each with a `WWW-Authenticate` challenge (RFC 9110 §11.6.1; the Bearer
 * parameters of RFC 6750 §3, `scope` included). A cookie-authenticated write
 * from another site is 403 `forbidden` (auth/csrf).
 */
import { AppError, type ErrorCode } from '../errors';
import { tierAtLeast } from '../domain/tiers';
import { crossSiteWrite } from './csrf';
import type { CredentialKind, Identity, Principal } from './principal';
import type { RouteAccess } from './route-access';

export const SESSION_COOKIE = '__session';
const REALM = 'breakline';
const BOTH: CredentialKind[] = ['session', 'key'];

/** The principal the route may act for, or throws the 401/403 to answer. */
export function authorize(identity: Identity, access: RouteAccess, request: Request, allowedOrigins: readonly string[]): Principal {
  if (identity.state === 'anonymous') {
    throw unauthorized('unauthorized', `Authentication required: send the ${SESSION_COOKIE} cookie or an API key as 'Authorization: Bearer bk_…'`);
  }
  if (identity.state === 'refused') throw refused(identity);
  const { principal } = identity;
  if (!principal.scopes.includes(access.scope)) {
    throw new AppError('insufficient_scope', `This API key lacks the '${access.scope}' scope (it has: ${principal.scopes.join(', ') || 'none'}); create a key with it (POST /api/keys, 'scopes'), within your tier's scopes`, {
      'www-authenticate': challenge('key', { error: 'insufficient_scope', scope: access.scope }),
    });
  }
  const minimum = access.tier;
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

/** The 401 of a presented credential that was refused, with its code. */
export function refused(identity: Extract<Identity, { state: 'refused' }>): AppError {
  const what = identity.kind === 'session' ? 'session' : 'API key';
  // `unverifiable` is the identity provider's keys being out of reach: still no credential this route can accept.
  const code: ErrorCode = identity.code === 'unverifiable' ? 'invalid_session' : identity.code;
  return unauthorized(code, `Invalid ${what}: ${identity.reason}`, identity.kind === 'key' ? identity.reason : undefined);
}

/** A quoted-string's content as a header allows it: printable ASCII, no quote or backslash (RFC 9110 §5.6.4). */
function headerSafe(text: string): string {
  return text.replaceAll('…', '...').replaceAll('"', "'").replace(/[^\x20-\x7e]|\\/g, '');
}

function unauthorized(code: ErrorCode, message: string, keyError?: string): AppError {
  const challenges = BOTH.map((kind) => challenge(kind, kind === 'key' && keyError ? { error: 'invalid_token', error_description: keyError } : {}));
  return new AppError(code, message, { 'www-authenticate': challenges.join(', ') });
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
