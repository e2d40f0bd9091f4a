/**
 * @module plugins/body-limit
 * The sizes of a request, limited by the app itself so that every refusal is
 * the Error shape with a request id (Bun's own refusals have an empty body):
 *
 * - The request head (URL and header fields) is at most `REQUEST_HEAD_LIMIT`
 *   (16 KiB: Bun's and Node's default); a larger one is 431
 *   `headers_too_large`. Bun's own ceiling (`http.maxHeaderSize`, read by
 *   Bun.serve's parser) is raised to `SERVER_HEAD_CEILING` (1 MiB) by
 *   `serverLimits()` so heads between the two reach the app. Past the
 *   ceiling, and past 100 header fields (a count Bun 1.4 fixes at build time),
 *   Bun still answers 431 itself, with no body; so do its parser's 400 (no
 *   HTTP request at all) and 505 (an unknown HTTP version).
 * - A declared body (`Content-Length`) over `SERVER_BODY_LIMIT` (1 MiB) is 413
 *   `payload_too_large` before any work, on every route. Bun's own body limit
 *   (`maxRequestBodySize`) is lifted by `serverLimits()`, so no declared size
 *   gets Bun's empty 413; a body without a declared length is limited by
 *   whoever reads it (below), and one nobody reads is discarded by Bun.
 * - A route that reads a body declares it with `jsonBody: { limit, schema }`
 *   (the one way to take a body). It is read by plugins/json-body as a stream
 *   and refused with 413 `payload_too_large` as soon as it passes the limit (a
 *   lying or absent `Content-Length`, chunked encoding included), so no more
 *   than the limit is ever held; it must be UTF-8 JSON matching the schema as
 *   sent (else 400 `invalid_body` naming the field). The operation says
 *   `x-max-body-bytes` in the OpenAPI document. Keep `body: schema` beside it
 *   for the handler's types and the document. (GraphQL, which reads its own
 *   body, reads it through plugins/json-body's `readBodyBytes` at
 *   `SERVER_BODY_LIMIT`.)
 * - Every other route takes no body: a GET or HEAD that carries one is 413
 *   before any work (RFC 9110 §9.3.1 gives such content no meaning).
 *
 * @example
 * new Elysia().use(bodyLimit).post('/api/keys', ({ body }) => create(body), { jsonBody: { limit: 4096, schema: KeyRequest }, body: KeyRequest });
 */
import type { TSchema } from '@sinclair/typebox';
import http from 'node:http';
import { Elysia } from 'elysia';
import { AppError } from '../errors';
import { jsonBodyWithin, optionalJsonBodyWithin } from './json-body';
import { asHook, type RequestStep } from './step';

/** The largest body any route accepts (1 MiB). */
export const SERVER_BODY_LIMIT = 1 << 20;
/** The largest request head (URL and header fields) the app serves. */
export const REQUEST_HEAD_LIMIT = 16 * 1024;
/** Where Bun's own parser stops reading a head (and answers 431 with no body). */
export const SERVER_HEAD_CEILING = 1 << 20;

/**
 * Bun.serve's options for the limits above, with Bun's head ceiling raised
 * (`http.maxHeaderSize` is process-wide and read by Bun.serve's parser; it
 * also bounds the response heads `fetch` reads).
 */
export function serverLimits(): { maxRequestBodySize: number } {
  (http as { maxHeaderSize: number }).maxHeaderSize = SERVER_HEAD_CEILING;
  return { maxRequestBodySize: Number.MAX_SAFE_INTEGER };
}

/** The head size `headTooLarge` is adding up (one request at a time: the walk is synchronous). */
let headSize = 0;
/** Adds one field to `headSize`: one function for every request, not a closure made per request. */
const addField = (value: string, name: string): void => {
  headSize += name.length + value.length + 4;
};

/**
 * Whether the request's head passes REQUEST_HEAD_LIMIT: its URL, and its
 * fields (name, value, and the 4 bytes of `: ` and CRLF). `forEach` rather
 * than an iterator: no pair allocated per field (about 0.65 µs for a
 * browser's seven fields, 0.2 µs for a bare client's, in Bun 1.4), with a
 * callback made once (a closure per request was one more allocation on every
 * hot request: issue 27).
 */
export function headTooLarge(request: Request): boolean {
  headSize = request.url.length;
  if (headSize > REQUEST_HEAD_LIMIT) return true;
  request.headers.forEach(addField);
  return headSize > REQUEST_HEAD_LIMIT;
}

/** 413, closing the connection: the rest of the body is not worth reading. */
const refuse = (message: string) => new AppError('payload_too_large', message, { connection: 'close' });

/** A route's JSON body: its byte limit, its schema (checked as sent), and whether it may be absent (then `{}`). */
export interface JsonBodyNeed {
  limit: number;
  schema: TSchema;
  optional?: boolean;
}

/**
 * The step (plugins/step): 431 past the head limit, 413 for a declared body
 * past the body limit, and for any body (a positive length, or any transfer
 * coding) on a GET or HEAD. Each field is read once (the fast path runs this
 * on every hot request).
 */
export const bodyLimitStep: RequestStep = (request) => {
  if (headTooLarge(request)) throw new AppError('headers_too_large', `The request's URL and header fields exceed ${REQUEST_HEAD_LIMIT} bytes`, { connection: 'close' });
  const length = request.headers.get('content-length');
  // Read once: each read of a Request's method is a call into Bun (about 0.07 µs in Bun 1.4, measured under load).
  const method = request.method;
  const noBody = method === 'GET' || method === 'HEAD';
  if (length !== null && length !== '0') {
    if (Number(length) > SERVER_BODY_LIMIT) throw refuse(`The request body exceeds the limit of ${SERVER_BODY_LIMIT} bytes`);
    if (noBody) throw refuse(`A ${method} request takes no body`);
  }
  if (noBody && request.headers.has('transfer-encoding')) throw refuse(`A ${method} request takes no body`);
};

export const bodyLimit = new Elysia({ name: 'breakline/body-limit' })
  .onRequest(asHook(bodyLimitStep))
  .macro({
    jsonBody: ({ limit, schema, optional = false }: JsonBodyNeed) => {
      const detail: Record<string, number> = { 'x-max-body-bytes': limit };
      // Our reader parses; 'json' after it is never reached, but tells the document generator the body is JSON
      // (a route's `parse` takes content-type names beside functions; a macro's typing only admits functions).
      const documented = 'json' as unknown as (context: { request: Request }) => Promise<unknown>;
      return { detail, parse: [(optional ? optionalJsonBodyWithin : jsonBodyWithin)(limit, schema), documented] };
    },
  });

/** The step and the plugin that registers it (the plugin also gives routes the `jsonBody` option). */
export const bodyLimitStage = { step: bodyLimitStep, plugin: bodyLimit };
