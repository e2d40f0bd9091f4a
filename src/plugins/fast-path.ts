/**
 * @module plugins/fast-path
 * A documented fast path for the hot cached GETs (`/api/bars`,
 * `/api/snapshot`, `/api/breakouts` without `asOf`, `/api/health`), in front
 * of Elysia: Bun's router hands such a request here (app.ts registers these
 * handlers as the server's `routes`), and it is answered with the plugins'
 * own per-request steps, without Elysia's per-request hook chain, query
 * parser and Response copies:
 *
 * - the access-log line and the metrics observation (plugins/observe's `routeRecorder`),
 * - the steps before routing, in plugins/pipeline's one order, the very
 *   functions the Elysia plugins register (plugins/step): `X-Request-Id`,
 *   `API-Version`, `X-Content-Type-Options` and CORS, the head and body
 *   limits (431, 413), the rate-limit accounting and its headers (429); a
 *   refusal rendered by plugins/errors' `errorBody`,
 * - the route's own query schema, read from its one declaration (the app's
 *   route table: `queryOf`), checked and decoded by TypeBox, defaults
 *   applied; each query string decoded once, with what the route `prepare`s
 *   of it; and its service function,
 * - the `Link` of an envelope page (pagination's `envelopeLinks`, as plugins/representation sets it),
 * - ETag / 304, compression negotiation and `Vary` (plugins/representation's `represent`).
 *
 * Anything it does not answer the same way goes to Elysia untouched, before
 * anything was counted: another method, an `API-Version`
 * not served (400 there), a query that is not plain (a repeated or unknown
 * key, a percent-escape or `+`, a value the schema refuses: 400 there), an
 * `asOf` replay (a costly-class request), an `Accept` that asks for
 * another representation than JSON (plugins/media), a service that throws (404, 503,
 * …), a health answer other than 200. test/plugins/fast-path.test.ts sends
 * the same requests both ways and compares status, headers and bodies.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';
import type { ApiVersion } from '../config';
import { AppError } from '../errors';
import { Lru } from '../lru';
import { envelopeLinks, type PageMeta } from '../pagination';
import { plainlyJson } from './media';
import { errorBody } from './errors';
import { routeRecorder, type ObserveOptions } from './observe';
import { represent, NOT_MODIFIED, etagOf, type CompressedBodies, type HeaderRecord } from './representation';
import { REQUEST_ID_HEADER, runSteps, versionOf, type RequestStep, type SocketInfo } from './step';

/** A body the fast path serves: the serialised JSON, and whether it is a held (cached) string. */
export interface FastBody {
  text: string;
  held: boolean;
  /** Its ETag when the route holds it too (else made here: remembered for a held body, computed for another). */
  etag?: string;
  /** Where the body is in its list, when it is an envelope page: its RFC 8288 `Link` is set from it (pagination's `envelopeLinks`), as on the route. */
  pagination?: PageMeta;
}

/** One hot route: its path (the metrics label too), the query keys it takes here, and its answer; its query schema is its declaration's (`queryOf`). */
export interface FastRoute<Q = Record<string, unknown>, P = unknown> {
  path: string;
  /** Query keys answered here (string parameters); any other key sends the request to Elysia. */
  keys?: readonly string[];
  /**
   * What the answer needs of a query alone (ids, keys), made once when a
   * query string is decoded and kept with it, not per request.
   */
  prepare?(query: Q): P;
  /** The answer, or null to leave the request to Elysia (nothing has been counted yet). */
  answer(query: Q, apiVersion: ApiVersion, prepared: P): FastBody | null | Promise<FastBody | null>;
}

export interface FastPathOptions extends Pick<ObserveOptions, 'log' | 'metrics'> {
  /**
   * A GET route's query schema as the route declares it (the very object
   * Elysia validates with, from the app's route table), or undefined when it
   * takes no query. Read at a route's first request, once the app is composed.
   */
  queryOf: (path: string) => TSchema | undefined;
  /** The version a request without `API-Version` gets (the route's answer depends on it). */
  defaultVersion: ApiVersion;
  /** The steps before routing, in order (plugins/pipeline): run once the route has its answer. */
  steps: readonly RequestStep[];
  compressed: CompressedBodies;
}

type Handler = (request: Request, server: SocketInfo) => Response | Promise<Response>;

/** A plain query's pairs (the part of the URL after `?`), or null when it is not plain (escapes, `+`, a repeated or unknown key). */
function plainQuery(raw: string, keys: readonly string[]): Record<string, string> | null {
  const query: Record<string, string> = {};
  if (raw === '') return query;
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
 * One route's 200 answers made from a Headers object kept between requests:
 * a Response copies a Headers object natively, where it converts a plain
 * object's every name and value (about 1.2 µs for the nine headers of an
 * answer, 0.5 µs this way in Bun 1.4). Only the values that changed since the
 * last answer are set (the request id and the remaining count, mostly). A
 * request whose headers are not the same names in the same order (CORS, an
 * encoding) makes the kept object its own shape; the wire order is the
 * record's either way.
 */
class HeldHeaders {
  private readonly headers = new Headers();
  private names: string[] = [];
  private readonly values: string[] = [];

  respond(body: BodyInit, record: HeaderRecord): Response {
    const { names, values, headers } = this;
    let i = 0;
    for (const name in record) {
      const value = record[name];
      if (value === undefined || names[i] !== name) return this.reshape(body, record);
      const text = typeof value === 'string' ? value : String(value);
      if (values[i] !== text) {
        headers.set(name, text);
        values[i] = text;
      }
      i++;
    }
    if (i !== names.length) return this.reshape(body, record);
    return new Response(body, { status: 200, headers });
  }

  private reshape(body: BodyInit, record: HeaderRecord): Response {
    const response = respond(body, 200, record);
    for (const name of this.names) this.headers.delete(name);
    this.names = [];
    this.values.length = 0;
    for (const name in record) {
      const value = record[name];
      if (value === undefined) continue;
      this.names.push(name);
      this.values.push(String(value));
      this.headers.set(name, String(value));
    }
    return response;
  }
}

/** What the handlers of one route keep: the route, its recorder, its kept headers. */
interface OnRoute {
  route: FastRoute;
  record: (status: number, seconds: number, requestId: string) => void;
  held: HeldHeaders;
}

/** Decoded queries remembered per route (the raw query string is the key; a refused one is remembered as refused). */
const QUERIES_HELD = 512;
/** A longer query string is decoded every time, not remembered (the memory held stays small whatever callers send). */
const QUERY_HELD_CHARS = 256;

/** What a raw query string decodes to: the route's query, frozen (it is shared by every request that sends it), or null (Elysia's). */
type Decoded = Readonly<Record<string, unknown>> | null;

/** A query string's decoded query and what the route prepared of it. */
interface Held {
  query: Decoded;
  prepared: unknown;
}

/**
 * The handlers by path (`{ '/api/bars': { GET } }`, Bun's `routes` shape);
 * `ordinaryOf(path)` is the app's own handler of the route, which answers
 * whatever is left to it.
 */
export function fastPath(routes: readonly FastRoute<never>[], options: FastPathOptions, ordinaryOf: (path: string) => Handler): Record<string, { GET: Handler }> {
  const { defaultVersion, steps, compressed, queryOf } = options;
  const handlers: Record<string, { GET: Handler }> = {};
  for (const route of routes as readonly FastRoute[]) {
    // The declaration's schema, compiled at the first request (the route table is complete by then).
    let compiled: { schema: TSchema; check: ReturnType<typeof TypeCompiler.Compile> } | null | undefined;
    const schema = () => {
      if (compiled === undefined) {
        const declared = queryOf(route.path);
        compiled = declared ? { schema: declared, check: TypeCompiler.Compile(declared) } : null;
      }
      return compiled;
    };
    const keys = route.keys ?? [];
    const ordinary = () => ordinaryOf(route.path);
    const record = routeRecorder(options, 'GET', route.path);
    const on: OnRoute = { route, record, held: new HeldHeaders() };
    // The same raw query string always decodes the same way (the schema is fixed): decoded once, then looked up.
    const decoded = new Lru<string, Held>({ maxEntries: QUERIES_HELD });
    const last: { search: string | undefined; query: Held | undefined } = { search: undefined, query: undefined };
    const decode = (search: string): Decoded => {
      const raw = plainQuery(search, keys);
      if (raw === null) return null;
      const declared = schema();
      if (!declared) return Object.keys(raw).length > 0 ? null : Object.freeze(raw);
      const query = Value.Default(declared.schema, raw);
      return declared.check.Check(query) ? Object.freeze(declared.check.Decode(query) as Record<string, unknown>) : null;
    };
    const held = (search: string): Held => {
      const query = decode(search);
      return { query, prepared: query !== null && route.prepare ? route.prepare(query) : undefined };
    };
    const GET: Handler = (request, server) => {
      const receivedAt = performance.now();
      if (request.method !== 'GET') return ordinary()(request, server);
      // Only JSON is answered here: an Accept asking for another representation (CSV, NDJSON) is negotiated by the route.
      if (!plainlyJson(request.headers.get('accept'))) return ordinary()(request, server);
      const apiVersion = versionOf(request, defaultVersion);
      if (apiVersion === null) return ordinary()(request, server);
      const url = request.url;
      const mark = url.indexOf('?');
      // The query of the route's last request first (a client polling sends the same one: read in place, no string cut), then the held ones.
      let query = last.search !== undefined && (mark < 0 ? last.search === '' : url.length - mark - 1 === last.search.length && url.endsWith(last.search)) ? last.query : undefined;
      if (query === undefined) {
        const search = mark < 0 ? '' : url.slice(mark + 1);
        query = decoded.get(search);
        if (query === undefined) {
          query = held(search);
          if (search.length <= QUERY_HELD_CHARS) decoded.set(search, query);
        }
        last.search = search;
        last.query = query;
      }
      if (query.query === null) return ordinary()(request, server);
      let body: FastBody | null | Promise<FastBody | null>;
      try {
        body = route.answer(query.query, apiVersion, query.prepared);
      } catch {
        body = null;
      }
      if (body instanceof Promise) return body.then((b) => finish(on, request, server, b, receivedAt), () => finish(on, request, server, null, receivedAt));
      return finish(on, request, server, body, receivedAt);
    };
    handlers[route.path] = { GET };
  }

  /** The answer on the wire once the route has given its body: the steps, then the representation (synchronous unless a step waits). */
  function finish(on: OnRoute, request: Request, server: SocketInfo, body: FastBody | null, receivedAt: number): Response | Promise<Response> {
    if (body === null) return ordinaryOf(on.route.path)(request, server);
    // From here on the request is ours: the steps set the headers in their order, or refuse.
    const headers: HeaderRecord = {};
    const set = { headers };
    try {
      const waiting = runSteps(steps, request, server, set);
      if (waiting) {
        return waiting.then(
          () => send(on, request, body, headers, receivedAt),
          (error: unknown) => failed(on, error, headers, receivedAt),
        );
      }
      return send(on, request, body, headers, receivedAt);
    } catch (error) {
      return failed(on, error, headers, receivedAt);
    }
  }

  /**
   * The 200 (or 304) of a counted request, recorded; a failure in making it is answered as one. Synchronous
   * unless a large body is being compressed off the loop (the first requests for it).
   */
  function send(on: OnRoute, request: Request, body: FastBody, headers: HeaderRecord, receivedAt: number): Response | Promise<Response> {
    let response: Response;
    try {
      const link = body.pagination && envelopeLinks(request.url, body.pagination);
      if (link) headers.link = link;
      const etag = body.etag ?? (body.held ? compressed.etag(body.text) : etagOf(body.text));
      const sent = represent(request, body.text, etag, headers, compressed, body.held);
      if (sent instanceof Promise) {
        return sent.then((bytes) => on.held.respond(bytes, headers)).then(
          (later) => recorded(on, later, headers, receivedAt),
          (error: unknown) => failed(on, error, headers, receivedAt),
        );
      }
      response = sent === NOT_MODIFIED ? respond(null, 304, headers) : on.held.respond(sent, headers);
    } catch (error) {
      return failed(on, error, headers, receivedAt);
    }
    return recorded(on, response, headers, receivedAt);
  }

  function recorded(on: OnRoute, response: Response, headers: HeaderRecord, receivedAt: number): Response {
    on.record(response.status, (performance.now() - receivedAt) / 1000, headers[REQUEST_ID_HEADER] as string);
    return response;
  }

  /** A refusal (429) in its own shape; anything unexpected (a failing store, compression) is a 500 in the Error shape, logged. */
  function failed(on: OnRoute, error: unknown, headers: HeaderRecord, receivedAt: number): Response {
    const requestId = headers[REQUEST_ID_HEADER] as string;
    const appError = error instanceof AppError ? error : new AppError('internal', 'Internal server error');
    if (!(error instanceof AppError)) options.log.error('fast path failed', { path: on.route.path, requestId, error: String(error) });
    const response = respond(JSON.stringify(errorBody(appError, headers, requestId)), appError.status, headers);
    on.record(response.status, (performance.now() - receivedAt) / 1000, requestId);
    return response;
  }
  return handlers;
}
