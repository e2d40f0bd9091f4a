/**
 * @module plugins/body-limit
 * Request bodies, limited explicitly per route:
 *
 * - A route that reads a body declares its limit with `maxBody` (bytes). Its
 *   body is read as a stream and refused with 413 `payload_too_large` as soon
 *   as it passes the limit (a lying or absent `Content-Length`, chunked
 *   encoding included), so no more than the limit is ever held; it must be
 *   UTF-8 JSON (else 400 `invalid_body`). The operation says
 *   `x-max-body-bytes` in the OpenAPI document.
 * - Every other route takes no body: a GET or HEAD that carries one is 413
 *   before any work (RFC 9110 §9.3.1 gives such content no meaning).
 * - `SERVER_BODY_LIMIT` is the server-wide ceiling Bun enforces before the
 *   app sees a request (413), for any route that forgot to declare less.
 *
 * @example
 * new Elysia().use(bodyLimit).post('/api/keys', ({ body }) => create(body), { maxBody: 4096, body: KeyRequest });
 */
import { Elysia } from 'elysia';
import { AppError } from '../errors';

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
const tooLarge = (limit: number) => refuse(`The request body exceeds ${limit} bytes`);

/** Reads a body as UTF-8 text, refusing it the moment it passes `limit` bytes. */
export async function readBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new AppError('invalid_body', 'The request body is not valid UTF-8');
  }
}

/** Parses a JSON body of at most `limit` bytes (the route's `maxBody`). */
async function jsonBody(request: Request, contentType: string, limit: number): Promise<unknown> {
  const text = await readBody(request, limit);
  if (!/^application\/(.+\+)?json\s*(;|$)/i.test(contentType)) throw new AppError('invalid_body', 'The request body must be application/json');
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_body', 'The request body is not valid JSON');
  }
}

export const bodyLimit = new Elysia({ name: 'breakline/body-limit' })
  .onRequest(({ request }) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && carriesBody(request)) throw refuse(`A ${request.method} request takes no body`);
  })
  .macro({
    maxBody: (bytes: number) => {
      const detail: Record<string, number> = { 'x-max-body-bytes': bytes };
      // Our reader parses; 'json' after it is never reached, but tells the document generator the body is JSON
      // (a route's `parse` takes content-type names beside functions; a macro's typing only admits functions).
      const documented = 'json' as unknown as (context: { request: Request; contentType: string }) => Promise<unknown>;
      return { detail, parse: [({ request, contentType }) => jsonBody(request, contentType, bytes), documented] };
    },
  });
