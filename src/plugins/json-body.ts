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
 * has one. Use it as a route's `parse` hook (and keep `body` for the types
 * and the OpenAPI document).
 *
 * @example
 * app.post('/api/explain', handler, { parse: [jsonBodyWithin(65_536, Body), 'application/json'], body: Body });
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError } from '../errors';

export function jsonBodyWithin(limitBytes: number, schema: TSchema): (context: { request: Request }) => Promise<unknown> {
  const check = TypeCompiler.Compile(schema);
  const tooLarge = () => new AppError('payload_too_large', `The request body exceeds the limit of ${limitBytes} bytes`);
  return async ({ request }) => {
    const type = request.headers.get('content-type') ?? '';
    if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) throw new AppError('invalid_body', `The request body must be JSON (Content-Type: application/json), got ${type ? `'${type.slice(0, 60)}'` : 'none'}`);
    const declared = Number(request.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge();
    if (!request.body) throw new AppError('invalid_body', 'The request body is required');
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limitBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
    const text = new TextDecoder().decode(Buffer.concat(chunks));
    if (text.trim() === '') throw new AppError('invalid_body', 'The request body is required');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new AppError('invalid_body', 'The request body is not valid JSON');
    }
    if (!check.Check(value)) {
      const first = check.Errors(value).First()!;
      const path = first.path.replace(/^\//, '').replaceAll('/', '.');
      const custom = (first.schema as { error?: unknown }).error;
      throw new AppError('invalid_body', typeof custom === 'string' ? custom : path ? `Invalid body parameter '${path}': ${first.message}` : `Invalid body: ${first.message}`);
    }
    return value;
  };
}
