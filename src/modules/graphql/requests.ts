/**
 * @module modules/graphql/requests
 * What graphql/service checks of a request before yoga reads it: its body,
 * read within SERVER_BODY_LIMIT (yoga reads a body whole), the graphql-sse
 * stream token and operation ids it names, and graphql-sse's refusals in the
 * Error shape; and the status of a GraphQL request error by the media type
 * it is answered in (GraphQL over HTTP).
 */
import { Value } from '@sinclair/typebox/value';
import { getOperationAST, parse, type DocumentNode } from 'graphql';
import { AppError } from '../../errors';
import { SERVER_BODY_LIMIT } from '../../plugins/body-limit';
import { readBodyBytes, readJsonBody } from '../../plugins/json-body';
import { GraphQLRequest, type StreamRequest } from './model';

/** graphql-sse's header (or `token` query parameter) naming a reserved stream. */
export const STREAM_TOKEN_HEADER = 'x-graphql-event-stream-token';

/** The stream token a request names (header, else `?token=`); an empty one names none. */
export function streamToken(request: { url: string; headers: { get(name: string): string | null | undefined } }): string | undefined {
  return request.headers.get(STREAM_TOKEN_HEADER) || new URL(request.url).searchParams.get('token') || undefined;
}

/**
 * The request as yoga is to read it: one with a body (yoga reads a body whole)
 * read first, at most SERVER_BODY_LIMIT (413 past it, plugins/body-limit),
 * into a copy that keeps its headers and its abort signal (a stream ends when
 * its client goes).
 */
export async function withinBodyLimit(request: Request): Promise<Request> {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'DELETE' || !request.body) return request;
  const body = await readBodyBytes(request, SERVER_BODY_LIMIT);
  return new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
}

/** A POST's body (read within the limit already), by the one strict JSON reader (from a clone: yoga reads the request itself) and checked as a GraphQL request. */
export async function streamBody(request: Request): Promise<StreamRequest> {
  const body = await readJsonBody(request.clone(), SERVER_BODY_LIMIT);
  const failure = Value.Errors(GraphQLRequest, body).First();
  if (failure) throw new AppError('invalid_body', `Body ${failure.path ? `field '${failure.path.slice(1)}'` : ''}: ${failure.message}`.replace('Body :', 'Body:'));
  return body as StreamRequest;
}

/**
 * graphql-sse keeps streams and operations in plain objects: a token or an
 * operation id named like a member of Object.prototype (`constructor`,
 * `__proto__`, …) would reach that member. A token is always a UUID this
 * server made; such an operation id is refused.
 */
export function checkStreamIds(request: Request, search: URLSearchParams, body: StreamRequest | undefined): void {
  const token = streamToken(request);
  if (token !== undefined && !UUID.test(token)) throw new AppError('not_found', STREAM_REFUSALS[404]!);
  let operationId: unknown = request.method === 'DELETE' ? search.get('operationId') : body?.extensions?.operationId;
  if (request.method === 'GET') {
    try {
      operationId = (JSON.parse(search.get('extensions') ?? '{}') as { operationId?: unknown } | null)?.operationId;
    } catch {
      operationId = undefined; // unreadable extensions: graphql-sse refuses them
    }
  }
  if (operationId != null && String(operationId) in Object.prototype) throw new AppError(request.method === 'POST' ? 'invalid_body' : 'invalid_parameter', `The operation id '${String(operationId)}' is reserved`);
}

/**
 * Whether a request to /api/graphql/stream asks for an event stream: graphql-sse
 * opens one for `Accept: text/event-stream` exactly; a list naming it, and
 * (without a stream token, where only a stream can be meant) no Accept or
 * `*\/*`, are taken as that.
 */
export function wantsEventStream(request: Request): boolean {
  const accept = request.headers.get('accept');
  return accept?.includes('text/event-stream') || (!streamToken(request) && (request.method === 'GET' || request.method === 'POST') && (!accept || accept.trim() === '*/*'));
}

/**
 * The operation a stream request names, checked before yoga reads it: the
 * yoga plugin parses and validates before graphql-sse could answer a syntax
 * error, or an operation it cannot pick, with a 400 (graphql-sse's own
 * answer; yoga's throws reach the handler as a 500).
 */
export function checkStreamOperation(request: Request, search: URLSearchParams, body: StreamRequest | undefined): void {
  const query = request.method === 'GET' ? search.get('query') : (body?.query ?? null);
  if (query === null) return;
  const operationName = request.method === 'GET' ? search.get('operationName') : body?.operationName;
  const refuse = (message: string) => new AppError(request.method === 'GET' ? 'invalid_parameter' : 'invalid_body', message);
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    throw refuse(error instanceof Error ? error.message : String(error));
  }
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) throw refuse(operationName == null ? 'The document must hold one operation, or operationName must name one' : `The document has no operation named '${operationName}'`);
  if (operation.operation === 'mutation' && request.method === 'GET') throw refuse('A mutation needs POST');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What each graphql-sse refusal means here, when its body does not say. */
export const STREAM_REFUSALS: Record<number, string> = {
  404: 'No such stream: name one reserved by PUT (X-GraphQL-Event-Stream-Token or ?token=)',
  405: 'Not a method of the graphql-sse protocol here (GET or POST an operation, PUT to reserve a stream, DELETE to stop an operation)',
  406: 'Accept must be text/event-stream to open a stream, */* or text/plain to reserve one (PUT), */* or application/json to add an operation to one',
};

/** A refusal of graphql-sse's handler as an AppError: 404 and 409 as they are, any other 4xx the request's fault (400). */
export function streamRefusal(request: Request, status: number, text: string): AppError {
  let message = STREAM_REFUSALS[status] ?? 'Not a GraphQL over SSE request';
  try {
    message = (JSON.parse(text) as { errors?: { message?: string }[] }).errors?.[0]?.message ?? message;
  } catch {
    // an empty or non-JSON body keeps the general message
  }
  if (status === 404) return new AppError('not_found', message);
  if (status === 409) return new AppError('conflict', message);
  if (status === 429) return new AppError('rate_limited', message);
  if (status >= 500) return new AppError('internal', message);
  return new AppError(request.method === 'POST' ? 'invalid_body' : 'invalid_parameter', message);
}

const GRAPHQL_RESPONSE_JSON = 'application/graphql-response+json';

/**
 * A GraphQL request error that yoga answered 4xx (a document that does not
 * parse or validate, an operation that cannot be determined, variables that
 * do not coerce, a depth/alias/cost limit) as a GraphQL response, per the
 * GraphQL over HTTP spec (graphql/graphql-over-http, spec/GraphQLOverHTTP.md
 * § Status Codes): its `errors`, no `data`, in the media type yoga chose from
 * `Accept`: `application/graphql-response+json` at 400 ("does not pass
 * validation … SHOULD reply with 400"; a response without `data` MUST be
 * 4xx), `application/json` at 200 (the status a client can trust to come
 * from the server, whatever the request error). Undefined when the body is
 * not such a response (then the Error shape answers, as for a request that
 * is not GraphQL over HTTP at all).
 */
export function graphqlRequestError(response: Response, text: string): Response | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors) || errors.length === 0 || 'data' in (body as object)) return undefined;
  // A refused persisted-query hash is about the request, not a document: the Error shape, as before.
  if (errors.some((e: { extensions?: { code?: unknown } }) => String(e?.extensions?.code ?? '').startsWith('PERSISTED_QUERY'))) return undefined;
  const graphqlResponse = response.headers.get('content-type')?.startsWith(GRAPHQL_RESPONSE_JSON) ?? false;
  const headers = new Headers(response.headers);
  headers.set('content-type', `${graphqlResponse ? GRAPHQL_RESPONSE_JSON : 'application/json'}; charset=utf-8`);
  return new Response(text, { status: graphqlResponse ? 400 : 200, headers });
}
