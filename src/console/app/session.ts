/**
 * @module console/app/session
 * Who is signed in, as far as the browser can tell. A session is the
 * `__session` cookie holding a JWT (from your identity provider, or minted by
 * `breakline token mint` in local mode); the server verifies it on every
 * request, so what is read here (the token's `sub`, `tier` and `exp`, never
 * trusted for anything but display) only decides what the console offers.
 *
 * Local sign-in stores a pasted token as that cookie: `SameSite=Strict`
 * (never sent by another site), `Secure` on https, for the token's lifetime.
 * It is not `HttpOnly` (a page can only set cookies it can read); the page's
 * Content-Security-Policy runs this origin's scripts only.
 */

export const SESSION_COOKIE = '__session';

export interface SessionInfo {
  userId: string;
  tier?: string;
  /** Expiry, ms since the epoch (undefined: the token names none). */
  expiresAt?: number;
}

function cookieValue(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The claims of a JWT (unverified), or undefined when it is not one. */
export function claimsOf(token: string): Record<string, unknown> | undefined {
  const [, payload] = token.split('.');
  if (!payload) return undefined;
  try {
    const json = atob(payload.replaceAll('-', '+').replaceAll('_', '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const claims = JSON.parse(json) as unknown;
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The session the cookie holds, unless there is none, it is not a JWT or it has expired. */
export function currentSession(tierClaim = 'tier'): SessionInfo | undefined {
  const token = cookieValue(SESSION_COOKIE);
  const claims = token ? claimsOf(token) : undefined;
  if (!claims || typeof claims.sub !== 'string') return undefined;
  const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  if (expiresAt !== undefined && expiresAt <= Date.now()) return undefined;
  return { userId: claims.sub, tier: typeof claims[tierClaim] === 'string' ? (claims[tierClaim] as string) : undefined, expiresAt };
}

/** Stores `token` as the session cookie (for its lifetime); throws when it is not a JWT with a subject that is still valid. */
export function signIn(token: string): SessionInfo {
  const trimmed = token.trim();
  const claims = claimsOf(trimmed);
  if (!claims || typeof claims.sub !== 'string') throw new Error('That is not a session token (a JWT with a subject). Mint one with `breakline token mint --user NAME`.');
  const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
  if (expiresAt !== undefined && expiresAt <= Date.now()) throw new Error('That token has expired; mint a new one.');
  const maxAge = expiresAt === undefined ? '' : `; Max-Age=${Math.floor((expiresAt - Date.now()) / 1000)}`;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${SESSION_COOKIE}=${trimmed}; Path=/; SameSite=Strict${maxAge}${secure}`;
  return currentSession()!;
}

export function signOut(): void {
  document.cookie = `${SESSION_COOKIE}=; Path=/; SameSite=Strict; Max-Age=0`;
}
