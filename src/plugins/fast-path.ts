/**
 * @module plugins/fast-path
 * A documented fast path for the hot cached GETs (`/api/bars`,
 * `/api/snapshot`, `/api/breakouts` without `asOf`, `/api/health`), in front
 * of Elysia: Bun's router hands such a request here (app.ts registers these
 * handlers as the server's `routes`), and it is answered with the very pieces
 * the plugins use, in their order, without Elysia's per-request hook chain,
 * query parser and Response copies:
 *
 * - the access-log line and the metrics observation (plugins/observe's `recorder`),
 * - `X-Request-Id` (plugins/request-id), `API-Version` (plugins/versioning),
 * - `X-Content-Type-Options` and the CORS headers (plugins/security),
 * - the rate-limit accounting and its headers, 429 included (plugins/rate-limit's
 *   `rateLimiter`, rendered by plugins/errors' `errorBody`),
 * - the route's own query schema (checked and decoded by TypeBox, defaults
 *   applied) and its service function,
 * - ETag / 304, compression negotiation and `Vary` (plugins/representation's `represent`).
 *
 * Anything it does not answer the same way goes to Elysia untouched, before
 * anything was counted: another method, a body on a GET, an `API-Version`
 * not served (400 there), a query that is not plain (a repeated or unknown
 * key, a percent-escape or `+`, a value the schema refuses: 400 there), an
 * `asOf` replay (a costly-class request), a service that throws (404, 503,
 * …), a health answer other than 200. test/plugins/fast-path.test.ts sends
 * the same requests both ways and compares status, headers and bodies.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { ApiVersion } from '../config';
import { AppError } from '../errors';
import { errorBody } from './errors';
import { recorder, type ObserveOptions } from './observe';
import type { GeneralAccounting, SocketInfo } from './rate-limit';
import { represent, NOT_MODIFIED, etagOf, type CompressedBodies, type HeaderRecord } from './representation';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { API_VERSION_HEADER, versionOf } from './versioning';

/** A body the fast path serves: the serialised JSON, and whether it is a held (cached) string. */
export interface FastBody {
  text: string;
  held: boolean;
}

/** One hot route: its path (the metrics label too), the query keys it takes here, and its answer. */
export interface FastRoute<Q = Record<string, unknown>> {
  path: string;
  /** The route's query schema (the same object Elysia validates with); omitted: no query at all. */
  query?: TSchema;
  /** Query keys answered here (string parameters); any other key sends the request to Elysia. */
  keys?: readonly string[];
  /** The answer, or null to leave the request to Elysia (nothing has been counted yet). */
  answer(query: Q, apiVersion: ApiVersion): Promise<FastBody | null>;
}

export interface FastPathOptions extends Pick<ObserveOptions, 'log' | 'metrics'> {
  defaultVersion: ApiVersion;
  cors: (origin: string | null) => Record<string, string | number> | null;
  rateLimit: GeneralAccounting;
  compressed: CompressedBodies;
}

type Handler = (request: Request, server: SocketInfo) => Response | Promise<Response>;

/** A plain query's pairs, or null when it is not plain (escapes, `+`, a repeated or unknown key). */
function plainQuery(url: string, keys: readonly string[]): Record<string, string> | null {
  const mark = url.indexOf('?');
  const query: Record<string, string> = {};
  if (mark < 0 || mark === url.length - 1) return query;
  const raw = url.slice(mark + 1);
  if (raw.includes('%') || raw.includes('+') || raw.includes('#')) return null;
  for (const pair of raw.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (!keys.includes(key) || key in query) return null;
    query[key] = eq < 0 ? '' : pair.slice(eq + 1);
  }
  return query;
}

/** A JSON answer's bare minimum: status, headers, body. */
const respond = (body: BodyInit | null, status: number, headers: HeaderRecord) => new Response(body, { status, headers: headers as Record<string, string> });

/**
 * The handlers by path (`{ '/api/bars': { GET } }`, Bun's `routes` shape);
 * `ordinaryOf(path)` is the app's own handler of the route, which answers
 * whatever is left to it.
 */
export function fastPath(routes: readonly FastRoute<never>[], options: FastPathOptions, ordinaryOf: (path: string) => Handler): Record<string, { GET: Handler }> {
  const record = recorder(options);
  const { defaultVersion, cors, rateLimit, compressed } = options;
  const handlers: Record<string, { GET: Handler }> = {};
  for (const route of routes as readonly FastRoute[]) {
    const check = route.query ? TypeCompiler.Compile(route.query) : undefined;
    const keys = route.keys ?? [];
    const ordinary = () => ordinaryOf(route.path);
    const GET: Handler = (request, server) => {
      const receivedAt = performance.now();
      if (request.method !== 'GET' || request.headers.has('transfer-encoding') || (request.headers.get('content-length') ?? '0') !== '0') return ordinary()(request, server);
      const apiVersion = versionOf(request, defaultVersion);
      const raw = plainQuery(request.url, keys);
      if (apiVersion === null || raw === null || (check === undefined && Object.keys(raw).length > 0)) return ordinary()(request, server);
      let query: unknown = raw;
      if (check) {
        query = Value.Default(route.query!, raw);
        if (!check.Check(query)) return ordinary()(request, server);
        query = check.Decode(query);
      }
      return answer(route, request, server, query, apiVersion, receivedAt);
    };
    handlers[route.path] = { GET };
  }

  async function answer(route: FastRoute, request: Request, server: SocketInfo, query: unknown, apiVersion: ApiVersion, receivedAt: number): Promise<Response> {
    let body: FastBody | null;
    try {
      body = await route.answer(query as Record<string, unknown>, apiVersion);
    } catch {
      body = null;
    }
    if (body === null) return ordinaryOf(route.path)(request, server);
    // From here on the request is ours: headers in the plugins' order.
    const requestId = requestIdOf(request);
    const headers: HeaderRecord = { [REQUEST_ID_HEADER]: requestId, [API_VERSION_HEADER]: apiVersion, 'x-content-type-options': 'nosniff' };
    const corsHeaders = cors(request.headers.get('origin'));
    if (corsHeaders) Object.assign(headers, corsHeaders);
    const done = (response: Response) => {
      record('GET', route.path, response.status, (performance.now() - receivedAt) / 1000, requestId);
      return response;
    };
    try {
      const counting = rateLimit(request, server, { headers }, route.path);
      if (counting) await counting;
      const etag = body.held ? compressed.etag(body.text) : etagOf(body.text);
      const sent = represent(request, body.text, etag, headers, compressed);
      if (sent === NOT_MODIFIED) return done(respond(null, 304, headers));
      return done(respond(sent, 200, headers));
    } catch (error) {
      // A refusal (429) in its own shape; anything unexpected (a failing store, compression) is a 500 in the Error shape, logged.
      const appError = error instanceof AppError ? error : new AppError('internal', 'Internal server error');
      if (!(error instanceof AppError)) options.log.error('fast path failed', { path: route.path, requestId, error: String(error) });
      return done(respond(JSON.stringify(errorBody(appError, headers, requestId)), appError.status, headers));
    }
  }
  return handlers;
}
