/**
 * @module plugins/security
 * Response headers every answer carries, and the CORS policy.
 *
 * - `X-Content-Type-Options: nosniff` on every response (errors and 404s too).
 * - The HTML page (the docs UI) sets its own Content-Security-Policy and
 *   `frame-ancestors` (plugins/docs-ui).
 * - CORS from `CORS_ORIGINS`: unset → no CORS headers (same origin only);
 *   `*` → any origin, without credentials; a list → those origins, echoed with
 *   `Vary: Origin`, with `Access-Control-Allow-Credentials` only for the ones the
 *   CSRF rule trusts with cookie writes too (`AUTH_ALLOWED_ORIGINS`). A preflight
 *   (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 here,
 *   before routing and the rate limit; from an origin not allowed it is 403
 *   `forbidden` in the Error shape. Any other `OPTIONS` is 204 with `Allow`.
 *
 * @example
 * new Elysia().use(security({ corsOrigins: ['https://app.example'], credentialOrigins: [] }));
 */
import { Elysia } from 'elysia';
import { AppError, echoed } from '../errors';
import type { RequestStep, SocketInfo } from './step';

/** Methods any route of ours answers. */
const METHODS = 'GET, HEAD, POST, DELETE, OPTIONS';
/** Request headers a cross-origin caller may send. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, API-Version, X-Request-Id, X-API-Key, Last-Event-ID, If-None-Match, Accept-Encoding';
/** Response headers a cross-origin caller may read. */
const EXPOSED_HEADERS = 'X-Request-Id, API-Version, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, ETag';
const PREFLIGHT_MAX_AGE = '600';

export interface SecurityOptions {
  /** `*`, a list of origins, or undefined (no CORS). */
  corsOrigins: '*' | readonly string[] | undefined;
  /** Origins that may also send cookies (the CSRF rule's allowed list). */
  credentialOrigins: readonly string[];
}

type Headers = Record<string, string | number>;

/** The CORS headers for a request's Origin: null when CORS is off, the request names no Origin, or it is not allowed. */
export function corsPolicy({ corsOrigins, credentialOrigins }: SecurityOptions): (origin: string | null) => Headers | null {
  const any = corsOrigins === '*';
  const listed = new Set(any ? [] : (corsOrigins ?? []));
  const withCredentials = new Set(credentialOrigins);
  const enabled = any || listed.size > 0;

  /** The CORS headers for an allowed origin, or null when it is not allowed. */
  const corsFor = (origin: string): Headers | null => {
    if (any) return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED_HEADERS };
    if (!listed.has(origin)) return null;
    const headers: Headers = { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED_HEADERS, vary: 'Origin' };
    if (withCredentials.has(origin)) headers['access-control-allow-credentials'] = 'true';
    return headers;
  };
  return (origin) => (origin && enabled ? corsFor(origin) : null);
}

/** The step (plugins/step): `nosniff`, and the CORS headers for the request's Origin when CORS is on. */
export function securityStep(options: SecurityOptions): RequestStep {
  const enabled = options.corsOrigins === '*' || (options.corsOrigins ?? []).length > 0;
  const corsOf = corsPolicy(options);
  return (request, _server, set) => {
    set.headers['x-content-type-options'] = 'nosniff';
    if (!enabled) return;
    const cors = corsOf(request.headers.get('origin'));
    if (cors) Object.assign(set.headers, cors);
  };
}

/** The step and the plugin that registers it, answering the `OPTIONS` requests too (preflights before routing). */
export function securityStage(options: SecurityOptions) {
  const step = securityStep(options);
  const corsOf = corsPolicy(options);
  // Destructured here (not the whole context handed on): Elysia reads a hook's parameters to know what the context needs.
  const plugin = new Elysia({ name: 'breakline/security' }).onRequest(({ request, server, set }) => {
    step(request, server as SocketInfo, set);
    if (request.method !== 'OPTIONS') return;
    const asked = request.headers.get('access-control-request-method');
    if (asked === null) return new Response(null, { status: 204, headers: { ...(set.headers as Headers), allow: METHODS } as Record<string, string> });
    const origin = request.headers.get('origin');
    const cors = corsOf(origin);
    if (!cors) throw new AppError('forbidden', origin ? `Origin ${echoed(origin)} may not call this API from a browser` : 'A CORS preflight names its Origin');
    return new Response(null, {
      status: 204,
      headers: {
        ...(set.headers as Headers),
        'access-control-allow-methods': METHODS,
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': PREFLIGHT_MAX_AGE,
        vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
      } as Record<string, string>,
    });
  });
  return { step, plugin };
}

export function security(options: SecurityOptions) {
  return securityStage(options).plugin;
}
