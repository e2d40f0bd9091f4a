/**
 * @module plugins/body-limit
 * Request bodies, limited explicitly per route:
 *
 * - A route that reads a body declares it with `jsonBody: { limit, schema }`
 *   (the one way to take a body). It is read by plugins/json-body as a stream
 *   and refused with 413 `payload_too_large` as soon as it passes the limit (a
 *   lying or absent `Content-Length`, chunked encoding included), so no more
 *   than the limit is ever held; it must be UTF-8 JSON matching the schema as
 *   sent (else 400 `invalid_body` naming the field). The operation says
 *   `x-max-body-bytes` in the OpenAPI document. Keep `body: schema` beside it
 *   for the handler's types and the document.
 * - Every other route takes no body: a GET or HEAD that carries one is 413
 *   before any work (RFC 9110 §9.3.1 gives such content no meaning).
 * - `SERVER_BODY_LIMIT` is the server-wide ceiling Bun enforces before the
 *   app sees a request (413), for any route that forgot to declare less.
 *
 * @example
 * new Elysia().use(bodyLimit).post('/api/keys', ({ body }) => create(body), { jsonBody: { limit: 4096, schema: KeyRequest }, body: KeyRequest });
 */
import type { TSchema } from '@sinclair/typebox';
import { Elysia } from 'elysia';
import { AppError } from '../errors';
import { jsonBodyWithin, optionalJsonBodyWithin } from './json-body';

/** The largest body Bun accepts on any route (1 MiB). */
export const SERVER_BODY_LIMIT = 1 << 20;

/** Whether a request announces a body (a positive length, or any transfer coding). */
function carriesBody(request: Request): boolean {
  if (request.headers.has('transfer-encoding')) return true;
  const length = request.headers.get('content-length');
  return length !== null && length !== '0';
}

/** 413, closing the connection: the rest of the body is not worth reading. */
const refuse = (message: string) => new AppError('payload_too_large', message, { connection: 'close' });

/** A route's JSON body: its byte limit, its schema (checked as sent), and whether it may be absent (then `{}`). */
export interface JsonBodyNeed {
  limit: number;
  schema: TSchema;
  optional?: boolean;
}

export const bodyLimit = new Elysia({ name: 'breakline/body-limit' })
  .onRequest(({ request }) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && carriesBody(request)) throw refuse(`A ${request.method} request takes no body`);
  })
  .macro({
    jsonBody: ({ limit, schema, optional = false }: JsonBodyNeed) => {
      const detail: Record<string, number> = { 'x-max-body-bytes': limit };
      // Our reader parses; 'json' after it is never reached, but tells the document generator the body is JSON
      // (a route's `parse` takes content-type names beside functions; a macro's typing only admits functions).
      const documented = 'json' as unknown as (context: { request: Request }) => Promise<unknown>;
      return { detail, parse: [(optional ? optionalJsonBodyWithin : jsonBodyWithin)(limit, schema), documented] };
    },
  });
