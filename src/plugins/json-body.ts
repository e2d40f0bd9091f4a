/**
 * @module plugins/json-body
 * A route-level JSON body parser with an explicit size limit: the
 * `Content-Length` is checked first, then the stream is read and abandoned
 * the moment it passes the limit (a chunked body cannot slip by). Too large:
 * 413 `payload_too_large`; not JSON, empty or another content type: 400
 * `invalid_body`. Use it as a route's `parse` hook.
 *
 * @example
 * app.post('/api/explain', handler, { parse: jsonBodyWithin(65_536), body: Schema });
 */
import { AppError } from '../errors';

export function jsonBodyWithin(limitBytes: number): (context: { request: Request }) => Promise<unknown> {
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
    try {
      return JSON.parse(text);
    } catch {
      throw new AppError('invalid_body', 'The request body is not valid JSON');
    }
  };
}
