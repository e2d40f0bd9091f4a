/**
 * @module auth/csrf
 * The CSRF rule for writes authenticated by the `__session` cookie (a browser
 * attaches the cookie to cross-site requests too; an API key is never sent by
 * a browser on its own, so key-authenticated writes need no such rule).
 *
 * A write (any method but GET, HEAD, OPTIONS) with a session is refused when
 * the browser says it comes from another site:
 * 1. `Sec-Fetch-Site` present: allowed when `same-origin` or `none` (typed in
 *    the address bar, a bookmark), or when `Origin` is in the allowed list;
 *    refused otherwise (`same-site` and `cross-site`).
 * 2. No `Sec-Fetch-Site` but an `Origin`: allowed when its host is the
 *    request's `Host`, or it is in the allowed list; refused otherwise.
 * 3. Neither header: allowed. Every browser that sends cookies cross-site sends
 *    one of them on a cross-origin write, so such a request is not a browser
 *    acting for a visited page (curl, a server, a test).
 * This is the algorithm of Go's `net/http.CrossOriginProtection` (Go 1.25,
 * after Filippo Valsorda's "CSRF" note, 2025) and OWASP's "verifying origin
 * with standard headers". It is the first line; identity providers also set
 * the cookie `SameSite=Lax` (Clerk does), which stops cross-site POSTs from
 * carrying it in current browsers.
 *
 * @example
 * crossSiteWrite(new Request('https://api.example/api/keys', { method: 'POST', headers: { origin: 'https://evil.example', host: 'api.example' } }), []);
 * // => "Origin https://evil.example may not send cookie-authenticated writes"
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Why this cookie-authenticated request must be refused, or null when it may proceed. */
export function crossSiteWrite(request: Request, allowedOrigins: readonly string[]): string | null {
  if (SAFE_METHODS.has(request.method)) return null;
  const origin = request.headers.get('origin');
  const allowed = origin !== null && allowedOrigins.includes(origin);
  const fetchSite = request.headers.get('sec-fetch-site');
  if (fetchSite !== null) {
    if (fetchSite === 'same-origin' || fetchSite === 'none' || allowed) return null;
    return `a ${fetchSite} request may not send cookie-authenticated writes${origin ? ` (Origin ${origin})` : ''}`;
  }
  if (origin === null || allowed) return null;
  if (hostOf(origin) !== null && hostOf(origin) === (request.headers.get('host') ?? hostOf(request.url))) return null;
  return `Origin ${origin} may not send cookie-authenticated writes`;
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
