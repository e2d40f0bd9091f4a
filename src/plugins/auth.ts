/**
 * @module plugins/auth
 * Route-level access control: a protected route names its row of the one
 * authorisation table (auth/route-access: the scope an API key needs, the
 * lowest tier), and its handler receives the `principal` (user id, tier,
 * credential kind, scopes).
 *
 * @example
 * new Elysia({ name: 'breakline/watchlists' })
 *   .use(auth(services.auth.authenticator))
 *   .post('/api/watchlists', ({ principal, body }) => create(principal, body), { auth: 'POST /api/watchlists' });
 *
 * The row's name is the route's own `METHOD /path` (a test holds every route
 * to it). A session holds every scope; an API key
 * (`Authorization: Bearer bk_…`) the scopes it was given within its owner's
 * tier. Missing credential: 401 `unauthorized`; a refused one: 401 with its
 * code (`invalid_key`, `revoked_key`, `expired_session`, …); a key without
 * the scope: 403 `insufficient_scope`; tier too low: 403 `forbidden`; all in
 * the Error shape with `WWW-Authenticate`. A cookie-authenticated write from
 * another site: 403 (auth/csrf documents the rule). The check runs before
 * the request's input is validated, so an unauthenticated caller learns
 * nothing about the route's parameters — except the body: the strict JSON
 * reader (plugins/json-body) reads it and checks it against the route's body
 * schema at parse time, which Elysia runs before any route hook, so a
 * missing, malformed, oversized or ill-shaped body is refused 400/413 before
 * the 401. Only the body's own declared shape can be learnt that way, never a
 * stored object. The credential itself is resolved once per request by the
 * Authenticator (the rate limiter already asked it). The route's OpenAPI
 * operation gets its `security` requirement from the row (the `ApiKey`
 * scheme with the scope it needs) and `x-required-scope`/`x-required-tier`.
 * Give such a route a fresh `detail` object (`detail: { ...DOCS.create }`):
 * Elysia merges the macro's `security` into the route's `detail` in place, so
 * a shared DOCS object would collect one more entry per app built.
 */
import { Elysia } from 'elysia';
import { ROUTE_ACCESS, SESSION_COOKIE, type Authenticator, type ProtectedRoute, type RouteAccess } from '../auth';

/** The OpenAPI security schemes: the spec's `SessionCookie` (§5) and a Bearer scheme for API keys. */
export const SECURITY_SCHEMES = {
  SessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: "A session token (JWT) from the identity provider, or minted locally by 'breakline token mint' when none is configured. A session holds every scope.",
  },
  ApiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'bk_…',
    description: "An API key ('Authorization: Bearer bk_…'), created with POST /api/keys or 'breakline keys create' with its scopes (read, write, backtest, admin:keys; a free key reads only, a pro key also writes and backtests, an enterprise key also manages keys). An operation's requirement names the scope it needs.",
  },
} as const;

/** The OpenAPI text of a row: the schemes (the key's with its scope) and the row itself as extensions. */
function detailOf(access: RouteAccess): Record<string, unknown> {
  return {
    security: [{ SessionCookie: [] }, { ApiKey: [access.scope] }],
    'x-required-scope': access.scope,
    ...(access.tier ? { 'x-required-tier': access.tier } : {}),
  };
}

export function auth(authenticator: Authenticator) {
  return new Elysia({ name: 'breakline/auth' }).macro({
    auth: (route: ProtectedRoute) => {
      const access = ROUTE_ACCESS[route];
      return {
        detail: detailOf(access),
        // Before validation: a 401/403 comes first.
        async transform({ request }) {
          await authenticator.authorize(request, access);
        },
        async resolve({ request }) {
          return { principal: await authenticator.authorize(request, access) };
        },
      };
    },
  });
}
