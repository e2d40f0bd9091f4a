/**
 * @module plugins/json-body
 * A route-level JSON body parser with an explicit size limit and a strict
 * schema check. The `Content-Length` is checked first, then the stream is
 * read and abandoned the moment it passes the limit (a chunked body cannot
 * slip by). Too large: 413 `payload_too_large`; not JSON, empty or another
 * content type: 400 `invalid_body`.
 *
 * The parsed value is checked against `schema` as it came (TypeBox, no
 * conversion) before Elysia sees it: Elysia's own body normalisation would
 * turn a string where an array of objects belongs into an array of
 * one-character objects, and accept an array as an open object. The first
 * failure is a 400 naming the field, with the schema's `error` text when it
 * has one. Routes take it through plugins/body-limit's `jsonBody` option,
 * which also publishes the limit.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError } from '../errors';

/** 413, closing the connection: the rest of the body is not worth reading. */
const tooLarge = (limitBytes: number) => new AppError('payload_too_large', `The request body exceeds the limit of ${limitBytes} bytes`, { connection: 'close' });

/**
 * Reads a JSON body of at most `limitBytes`: the content type first, then the
 * declared length, then the stream, abandoned the moment it passes the limit.
 * Strict UTF-8; a byte-order mark is kept, so JSON.parse refuses it (RFC 8259
 * §8.1 forbids one).
 */
export async function readJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) throw new AppError('invalid_body', `The request body must be JSON (Content-Type: application/json), got ${type ? `'${type.slice(0, 60)}'` : 'none'}`);
  const bytes = await readBodyBytes(request, limitBytes);
  if (!bytes) throw new AppError('invalid_body', 'The request body is required');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new AppError('invalid_body', 'The request body is not valid UTF-8');
  }
  if (text.trim() === '') throw new AppError('invalid_body', 'The request body is required');
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('invalid_body', 'The request body is not valid JSON');
  }
}

/**
 * A body's bytes, at most `limitBytes` (413 past them: the declared length
 * first, then the stream, abandoned the moment it passes), or null when the
 * request has none.
 */
export async function readBodyBytes(request: Request, limitBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge(limitBytes);
  if (!request.body) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await reader.cancel();
      throw tooLarge(limitBytes);
    }
    chunks.push(value);
  }
  return Bun.concatArrayBuffers(chunks, Infinity, true);
}

/** A `parse` hook: {@link readJsonBody}, then the value checked against `schema` as it came. */
export function jsonBodyWithin(limitBytes: number, schema: TSchema): (context: { request: Request }) => Promise<unknown> {
  const check = TypeCompiler.Compile(schema);
  return async ({ request }) => {
    const value = await readJsonBody(request, limitBytes);
    if (!check.Check(value)) {
      const first = check.Errors(value).First()!;
      const path = first.path.replace(/^\//, '').replaceAll('/', '.');
      const custom = (first.schema as { error?: unknown }).error;
      throw new AppError('invalid_body', typeof custom === 'string' ? custom : path ? `Invalid body parameter '${path}': ${first.message}` : `Invalid body: ${first.message}`);
    }
    return value;
  };
}

/**
 * As {@link jsonBodyWithin} for a route whose body is optional (its fields can
 * come as query parameters instead): a request without a body (none, or
 * `Content-Length: 0`) parses as `{}`; one with a body is held to the same
 * rules.
 */
export function optionalJsonBodyWithin(limitBytes: number, schema: TSchema): (context: { request: Request }) => Promise<unknown> {
  const parse = jsonBodyWithin(limitBytes, schema);
  return async (context) => {
    const { request } = context;
    if (request.body === null || request.headers.get('content-length') === '0') return {};
    return parse(context);
  };
}
