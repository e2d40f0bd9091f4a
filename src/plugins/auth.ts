/**
 * @module plugins/auth
 * Route-level access control: a route declares what it needs in one option,
 * and its handler receives the `principal` (user id, tier, credential kind).
 *
 * @example
 * new Elysia({ name: 'breakline/backtest' })
 *   .use(auth(services.auth.authenticator))
 *   .post('/api/backtest/walk-forward', ({ principal }) => run(principal, …), { auth: 'session' })
 *   .post('/api/graphql', …, { auth: 'session-or-key' })
 *   .post('/api/exports', …, { auth: { accept: 'session-or-key', tier: 'pro' } });
 *
 * - `auth: 'session'` — the `__session` cookie only;
 * - `auth: 'session-or-key'` — the cookie, or an API key as `Authorization: Bearer bk_…`;
 * - `auth: { accept, tier }` — and at least that tier (free < pro < enterprise).
 * Missing or invalid credential: 401 `unauthorized`; tier too low: 403
 * `forbidden`; both in the Error shape with `WWW-Authenticate`. A
 * cookie-authenticated write from another site: 403 (auth/csrf documents the
 * rule). The check runs before the request's input is validated, so an
 * unauthenticated caller learns nothing about the route's parameters — except
 * the body: the strict JSON reader (plugins/json-body) reads it and checks it
 * against the route's body schema at parse time, which Elysia runs before any
 * route hook, so a missing, malformed, oversized or ill-shaped body is
 * refused 400/413 before the 401. Only the body's own declared shape can be
 * learnt that way, never a stored object. The
 * credential itself is resolved once per request by the Authenticator (the
 * rate limiter already asked it). The route's OpenAPI operation gets its
 * `security` requirement from the same option, naming the schemes of
 * `SECURITY_SCHEMES` (registered in app.ts). Give such a route a fresh
 * `detail` object (`detail: { ...DOCS.create }`): Elysia merges the macro's
 * `security` into the route's `detail` in place, so a shared DOCS object
 * would collect one more entry per app built.
 */
import { Elysia } from 'elysia';
import { acceptOf, SESSION_COOKIE, type AuthNeed, type Authenticator } from '../auth';

/** The OpenAPI security schemes: the spec's `SessionCookie` (§5) and a Bearer scheme for API keys. */
export const SECURITY_SCHEMES = {
  SessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: "A session token (JWT) from the identity provider, or minted locally by 'breakline token mint' when none is configured.",
  },
  ApiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'bk_…',
    description: "An API key ('Authorization: Bearer bk_…'), created with POST /api/keys or 'breakline keys create'.",
  },
} as const;

function securityOf(need: AuthNeed): Record<string, string[]>[] {
  return acceptOf(need) === 'session' ? [{ SessionCookie: [] }] : [{ SessionCookie: [] }, { ApiKey: [] }];
}

export function auth(authenticator: Authenticator) {
  return new Elysia({ name: 'breakline/auth' }).macro({
    auth: (need: AuthNeed) => ({
      detail: { security: securityOf(need) },
      // Before validation: a 401/403 comes first.
      async transform({ request }) {
        await authenticator.authorize(request, need);
      },
      async resolve({ request }) {
        return { principal: await authenticator.authorize(request, need) };
      },
    }),
  });
}
